import { z } from "zod";

import { humanizeName } from "./humanize-name";
import {
  type FieldHints,
  type JsonValue,
  type ListItemKind,
  QUESTION_SPEC_VERSION,
  type QuestionField,
  type QuestionGroup,
  type QuestionOption,
  type QuestionSpec,
} from "./question-spec";
import { UnsupportedSchemaError } from "./unsupported-schema-error";

/** What {@link specFromSchema} may be told beyond the schema. */
export interface SpecFromSchemaOptions {
  /** The questionnaire's title; defaults to the schema's `.meta({ title })`. */
  title?: string;
  /** The questionnaire's description; defaults to the schema's description. */
  description?: string;
}

type Schema = z.core.$ZodType;

/** A loosely typed check definition: only the fields read below, each checked before use. */
interface CheckDefinition {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  length?: number;
  format?: string;
  pattern?: RegExp;
}

/** A schema with its wrappers peeled off, and what the wrappers said. */
interface Unwrapped {
  node: z.core.$ZodTypes;
  optional: boolean;
  nullable: boolean;
  hasDefault: boolean;
  defaultValue: unknown;
  description?: string;
  title?: string;
  /** The outermost `.meta({ multiline })`: whether a text is asked in several lines, when the schema says. */
  multiline?: boolean;
  /** The outermost `.meta({ searchable })`: whether a choice is found by typing rather than picked from a list. */
  searchable?: boolean;
  /** Set when the node was a union of literals (and null/undefined), collapsed into options. */
  literalOptions?: QuestionOption[];
}

const INTEGER_FORMATS = new Set(["safeint", "int32", "uint32"]);
const FORBIDDEN_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Derive the question spec from a flow's zod object schema: one question per leaf field (nested
 * objects flattened to `a.b` paths, grouped under their description), with its kind, options,
 * default, optionality and browser hints. The result is plain JSON, safe to store and to send to a
 * browser. Shapes that cannot be asked (a union of objects, a record, a tuple…) throw an
 * {@link UnsupportedSchemaError} naming the field, so a flow learns of it when it is declared, not
 * when a person answers.
 */
export function specFromSchema(schema: Schema, options: SpecFromSchemaOptions = {}): QuestionSpec {
  const root = unwrap(schema, "");
  if (root.node._zod.def.type !== "object") {
    throw new UnsupportedSchemaError("", `a questionnaire is a z.object(...), not a ${describeType(root.node)}.`);
  }
  const spec: QuestionSpec = { version: QUESTION_SPEC_VERSION, fields: [], groups: [], crossFieldChecks: false };
  const title = options.title ?? root.title;
  const description = options.description ?? root.description;
  if (title !== undefined) spec.title = title;
  if (description !== undefined) spec.description = description;
  addObject(spec, root.node as z.core.$ZodObject, [], undefined);
  return spec;
}

function addObject(spec: QuestionSpec, object: z.core.$ZodObject, segments: string[], group: string | undefined): void {
  if ((object._zod.def.checks ?? []).length > 0) spec.crossFieldChecks = true;
  for (const [name, child] of Object.entries(object._zod.def.shape)) {
    const path = [...segments, name].join(".");
    checkName(name, path);
    const unwrapped = unwrap(child, path);
    if (unwrapped.node._zod.def.type === "object" && unwrapped.literalOptions === undefined) {
      if (unwrapped.nullable) throw new UnsupportedSchemaError(path, "a nested object that may be null cannot be asked field by field.");
      const nested: QuestionGroup = {
        path,
        heading: unwrapped.description ?? unwrapped.title ?? humanizeName(name),
        optional: unwrapped.optional || unwrapped.hasDefault,
      };
      if (group !== undefined) nested.group = group;
      spec.groups.push(nested);
      addObject(spec, unwrapped.node as z.core.$ZodObject, [...segments, name], path);
      continue;
    }
    spec.fields.push(leafField(unwrapped, name, path, group));
  }
}

function checkName(name: string, path: string): void {
  if (name === "") throw new UnsupportedSchemaError(path, "a field needs a name.");
  if (name.includes(".")) throw new UnsupportedSchemaError(path, `the name "${name}" contains a dot, which separates nested names.`);
  if (FORBIDDEN_NAMES.has(name)) throw new UnsupportedSchemaError(path, `"${name}" is not allowed as a field name.`);
}

function leafField(unwrapped: Unwrapped, name: string, path: string, group: string | undefined): QuestionField {
  const field: QuestionField = {
    path,
    name,
    question: unwrapped.description ?? unwrapped.title ?? humanizeName(name),
    kind: "text",
    optional: unwrapped.optional,
    nullable: unwrapped.nullable,
    hasDefault: unwrapped.hasDefault,
    hints: {},
  };
  if (group !== undefined) field.group = group;
  describeLeaf(field, unwrapped, path);
  if (field.kind === "text" && unwrapped.multiline !== undefined) field.hints.multiline = unwrapped.multiline;
  if (field.kind === "enum" && unwrapped.searchable !== undefined) field.hints.searchable = unwrapped.searchable;
  if (unwrapped.hasDefault) field.default = jsonDefault(unwrapped.defaultValue, field, path);
  return field;
}

/** Fill in kind, options and hints from the innermost schema. */
function describeLeaf(field: QuestionField, unwrapped: Unwrapped, path: string): void {
  if (unwrapped.literalOptions !== undefined) {
    field.kind = "enum";
    field.options = unwrapped.literalOptions;
    return;
  }
  const node = unwrapped.node;
  const def = node._zod.def;
  switch (def.type) {
    case "string":
    case "number":
    case "date":
      Object.assign(field, scalar(node, path));
      return;
    case "boolean":
      field.kind = "boolean";
      return;
    case "enum":
    case "literal":
      field.kind = "enum";
      field.options = optionsOf(node, path);
      return;
    case "array": {
      const element = unwrap(def.element, `${path}[]`);
      if (element.optional || element.nullable || element.hasDefault) {
        throw new UnsupportedSchemaError(path, "list items that may be left empty cannot be typed on one line.");
      }
      field.hints = arrayHints(node);
      if (element.literalOptions !== undefined || element.node._zod.def.type === "enum" || element.node._zod.def.type === "literal") {
        field.kind = "multi-choice";
        field.options = element.literalOptions ?? optionsOf(element.node, path);
        return;
      }
      const itemType = element.node._zod.def.type;
      if (itemType !== "string" && itemType !== "number" && itemType !== "date") {
        throw new UnsupportedSchemaError(path, `a list of ${describeType(element.node)} cannot be typed on one line.`);
      }
      const item = scalar(element.node, path);
      field.kind = "list";
      field.itemKind = item.kind as ListItemKind;
      if (item.dateValue !== undefined) field.dateValue = item.dateValue;
      return;
    }
    default:
      throw new UnsupportedSchemaError(path, `${describeType(node)} has no question form.`);
  }
}

/** Kind and hints of a string, number or date schema. */
function scalar(node: z.core.$ZodTypes, path: string): Pick<QuestionField, "kind" | "hints" | "dateValue"> {
  const def = node._zod.def;
  const hints: FieldHints = {};
  const checks = checkDefinitions(node);
  if (def.type === "date") {
    for (const check of checks) {
      if (check.check === "greater_than" && check.value instanceof Date) hints.min = isoDate(check.value);
      if (check.check === "less_than" && check.value instanceof Date) hints.max = isoDate(check.value);
    }
    return { kind: "date", dateValue: "date", hints };
  }
  if (def.type === "string") {
    const format = (def as { format?: string }).format;
    if (format === "date") return { kind: "date", dateValue: "string", hints };
    if (format !== undefined) hints.format = format;
    const patterns: RegExp[] = [];
    for (const check of checks) {
      if (check.check === "min_length" && typeof check.minimum === "number") hints.minLength = Math.max(hints.minLength ?? 0, check.minimum);
      if (check.check === "max_length" && typeof check.maximum === "number") hints.maxLength = Math.min(hints.maxLength ?? Infinity, check.maximum);
      if (check.check === "length_equals" && typeof check.length === "number") {
        hints.minLength = check.length;
        hints.maxLength = check.length;
      }
      if (check.check === "string_format" && check.format === "regex" && check.pattern instanceof RegExp) patterns.push(check.pattern);
    }
    // A browser's pattern attribute takes one expression and no flags; anything else stays server-side.
    const [only] = patterns;
    if (patterns.length === 1 && only !== undefined && only.flags === "") hints.pattern = only.source;
    return { kind: "text", hints };
  }
  if (def.type !== "number") throw new UnsupportedSchemaError(path, `${describeType(node)} has no question form.`);
  let integer = INTEGER_FORMATS.has((def as { format?: string }).format ?? "");
  for (const check of checks) {
    if (check.check === "number_format" && INTEGER_FORMATS.has(check.format ?? "")) integer = true;
    if (check.check === "greater_than" && typeof check.value === "number") {
      hints.min = check.value;
      if (check.inclusive === false) hints.minExclusive = true;
      else delete hints.minExclusive;
    }
    if (check.check === "less_than" && typeof check.value === "number") {
      hints.max = check.value;
      if (check.inclusive === false) hints.maxExclusive = true;
      else delete hints.maxExclusive;
    }
    if (check.check === "multiple_of" && typeof check.value === "number") hints.step = check.value;
  }
  if (integer && hints.step === undefined) hints.step = 1;
  return { kind: integer ? "integer" : "number", hints };
}

function arrayHints(node: z.core.$ZodTypes): FieldHints {
  const hints: FieldHints = {};
  for (const check of checkDefinitions(node)) {
    if (check.check === "min_length" && typeof check.minimum === "number") hints.minItems = check.minimum;
    if (check.check === "max_length" && typeof check.maximum === "number") hints.maxItems = check.maximum;
    if (check.check === "length_equals" && typeof check.length === "number") {
      hints.minItems = check.length;
      hints.maxItems = check.length;
    }
  }
  return hints;
}

function checkDefinitions(node: z.core.$ZodTypes): CheckDefinition[] {
  const checks = (node._zod.def as { checks?: z.core.$ZodCheck[] }).checks ?? [];
  return checks.map((check) => check._zod.def as CheckDefinition);
}

/** Options of an enum or literal schema, in order. */
function optionsOf(node: z.core.$ZodTypes, path: string): QuestionOption[] {
  const def = node._zod.def;
  const meta = z.globalRegistry.get(node);
  if (def.type === "enum") {
    return z.core.util.getEnumValues(def.entries).map((value) => option(value, path));
  }
  if (def.type === "literal") {
    return def.values.map((value) => {
      const entry = option(literalValue(value, path), path);
      // A one-value literal's own description describes that option.
      if (def.values.length === 1) decorate(entry, meta);
      return entry;
    });
  }
  throw new UnsupportedSchemaError(path, `${describeType(node)} has no options.`);
}

function literalValue(value: unknown, path: string): string | number | boolean {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  throw new UnsupportedSchemaError(path, `the literal ${String(value)} cannot be offered as an answer.`);
}

function option(value: string | number | boolean, path: string): QuestionOption {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new UnsupportedSchemaError(path, `the option ${String(value)} cannot be offered as an answer.`);
  }
  return { value, label: optionLabel(value) };
}

function decorate(entry: QuestionOption, meta: z.core.GlobalMeta | undefined): void {
  if (typeof meta?.title === "string") entry.label = meta.title;
  if (typeof meta?.description === "string") entry.description = meta.description;
}

/** "bank_transfer" reads "bank transfer"; any other value is shown as it is written. */
function optionLabel(value: string | number | boolean): string {
  if (typeof value === "string" && /^[\p{L}\p{N}]+(?:[_-][\p{L}\p{N}]+)+$/u.test(value)) return value.replace(/[_-]/g, " ");
  return String(value);
}

/**
 * Peel the wrappers (optional, nullable, default, readonly, pipes, a union with null…) off a
 * schema, remembering what they said. The outermost description and title win.
 */
function unwrap(schema: Schema, path: string): Unwrapped {
  const result: Unwrapped = {
    node: schema as z.core.$ZodTypes,
    optional: false,
    nullable: false,
    hasDefault: false,
    defaultValue: undefined,
  };
  let required = false;
  const seen = new Set<Schema>();
  let node = schema as z.core.$ZodTypes;
  for (;;) {
    if (seen.has(node)) throw new UnsupportedSchemaError(path, "a schema that contains itself cannot be asked.");
    seen.add(node);
    const meta = z.globalRegistry.get(node);
    if (result.description === undefined && typeof meta?.description === "string") result.description = meta.description;
    if (result.title === undefined && typeof meta?.title === "string") result.title = meta.title;
    if (result.multiline === undefined && typeof meta?.multiline === "boolean") result.multiline = meta.multiline;
    if (result.searchable === undefined && typeof meta?.searchable === "boolean") result.searchable = meta.searchable;
    const def = node._zod.def;
    switch (def.type) {
      case "optional":
        result.optional = true;
        node = def.innerType as z.core.$ZodTypes;
        continue;
      case "nonoptional":
        required = true;
        node = def.innerType as z.core.$ZodTypes;
        continue;
      case "nullable":
        result.nullable = true;
        node = def.innerType as z.core.$ZodTypes;
        continue;
      case "default":
      case "prefault":
        if (!result.hasDefault) {
          const value: unknown = def.defaultValue;
          // `.default(undefined)` defaults to nothing: the field may simply be left out.
          if (value === undefined) result.optional = true;
          else {
            result.hasDefault = true;
            result.defaultValue = value;
          }
        }
        node = def.innerType as z.core.$ZodTypes;
        continue;
      case "readonly":
      case "catch":
        node = def.innerType as z.core.$ZodTypes;
        continue;
      case "lazy":
        node = def.getter() as z.core.$ZodTypes;
        continue;
      case "pipe":
        // The person types the pipe's input; a preprocess step (a transform first) types its output.
        node = (def.in._zod.def.type === "transform" ? def.out : def.in) as z.core.$ZodTypes;
        continue;
      case "union": {
        const collapsed = collapseUnion(def.options, path);
        if (collapsed.optional) result.optional = true;
        if (collapsed.nullable) result.nullable = true;
        if (collapsed.options.length > 0) {
          result.node = node;
          result.literalOptions = collapsed.options;
          if (required) result.optional = false;
          return result;
        }
        if (collapsed.rest === undefined) throw new UnsupportedSchemaError(path, "a union of only null and undefined has nothing to ask.");
        node = collapsed.rest as z.core.$ZodTypes;
        continue;
      }
      default:
        result.node = node;
        if (required) result.optional = false;
        return result;
    }
  }
}

interface CollapsedUnion {
  options: QuestionOption[];
  optional: boolean;
  nullable: boolean;
  /** The one member that is neither a literal nor null/undefined, if there is exactly one. */
  rest?: Schema;
}

/**
 * A union is askable when its members are literals or enums (one set of options), or one type with
 * null/undefined beside it. Anything else — a union of objects, of strings and numbers — is not.
 */
function collapseUnion(members: readonly Schema[], path: string): CollapsedUnion {
  const collapsed: CollapsedUnion = { options: [], optional: false, nullable: false };
  const others: Schema[] = [];
  const visit = (member: Schema): void => {
    const def = (member as z.core.$ZodTypes)._zod.def;
    if (def.type === "null") collapsed.nullable = true;
    else if (def.type === "undefined" || def.type === "void") collapsed.optional = true;
    else if (def.type === "union") def.options.forEach(visit);
    else if (def.type === "literal") {
      for (const value of def.values) {
        if (value === null) collapsed.nullable = true;
        else if (value === undefined) collapsed.optional = true;
        else {
          const entry = option(literalValue(value, path), path);
          if (def.values.length === 1) decorate(entry, z.globalRegistry.get(member));
          collapsed.options.push(entry);
        }
      }
    } else if (def.type === "enum") collapsed.options.push(...optionsOf(member as z.core.$ZodTypes, path));
    else others.push(member);
  };
  members.forEach(visit);
  if (others.length > 1 || (others.length === 1 && collapsed.options.length > 0)) {
    const kinds = [...new Set(others.map((member) => describeType(member as z.core.$ZodTypes)))].join(" or ");
    throw new UnsupportedSchemaError(path, `a union of ${kinds}${collapsed.options.length > 0 ? " and fixed values" : ""} has no single question form; use one type, or a union of literals.`);
  }
  const [rest] = others;
  if (rest !== undefined) collapsed.rest = rest;
  return collapsed;
}

/** The default as plain JSON, so it can be stored and shown. */
function jsonDefault(value: unknown, field: QuestionField, path: string): JsonValue {
  if (value instanceof Date) return field.kind === "date" || field.itemKind === "date" ? isoDate(value) : value.toISOString();
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((item) => jsonDefault(item, field, path));
  throw new UnsupportedSchemaError(path, "its default is not plain data (text, a number, yes/no, a date or a list of them).");
}

/** `YYYY-MM-DD` of a date, in UTC. */
function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function describeType(node: z.core.$ZodTypes): string {
  const type = node._zod.def.type;
  const names: Partial<Record<string, string>> = {
    object: "an object",
    record: "a record (free-form keys)",
    map: "a map",
    set: "a set",
    tuple: "a tuple",
    intersection: "an intersection",
    union: "a union",
    any: "any value",
    unknown: "an unknown value",
    bigint: "a bigint",
    symbol: "a symbol",
    array: "a list",
    file: "a file",
    function: "a function",
    promise: "a promise",
    custom: "a custom type",
    never: "never",
    template_literal: "a template literal",
  };
  return names[type] ?? `a ${type}`;
}
