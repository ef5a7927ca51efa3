/**
 * Questions from schemas: a flow's zod object schema becomes a serialisable question spec; what a
 * person types becomes values through one shared parser; the flow's schema judges the answer and
 * its refusals go back on their fields; attempts are counted. Pure TypeScript, used alike by the
 * web app, the runtime and the terminal.
 */
export * from "./attempts";
export * from "./describe-answer";
export * from "./form-answer";
export * from "./format-answer-text";
export * from "./humanize-name";
export * from "./linear-pattern";
export * from "./parse-text-answer";
export * from "./question-spec";
export * from "./raw-answer";
export * from "./schema-from-json-schema";
export * from "./spec-from-schema";
export * from "./text-limit";
export * from "./unsupported-schema-error";
export * from "./validate-answer";
