export * from "./users";
export * from "./runtime";
export * from "./example";
export * from "./notifications";
