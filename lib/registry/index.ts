/**
 * The registry: which workflows this Parley runs and what its screens need of each. Its file is
 * `parley.config.ts` at the project root — the one place that names workflows. The app, the worker,
 * the terminal and the tests read it through `getRegistry()` from `@/lib/registry/configured` (not
 * exported here: an app imports this module, and would import itself through parley.config.ts), or
 * build their own with {@link createRegistry}.
 */
export * from "./define-app";
export * from "./registry";
export * from "./person-choice";
export * from "./platform-tasks";
