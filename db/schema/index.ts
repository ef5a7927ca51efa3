export * from "./users";
export * from "./runtime";
export * from "./tasks";
export * from "./notifications";
export * from "./api";
export * from "./sla";
export * from "./audit";
