/**
 * The registry: which workflows this Parley runs and what its screens need of each. Its file is
 * `parley.config.ts` at the project root — the one place that names workflows; the app, the worker,
 * the terminal and the tests read it through {@link getRegistry} (or build their own with
 * {@link createRegistry}).
 */
export * from "./define-app";
export * from "./registry";
export { getRegistry } from "./configured";
export * from "./person-choice";
