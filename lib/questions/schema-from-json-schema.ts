import { z } from "zod";

import { linearPattern } from "./linear-pattern";
import { specFromSchema } from "./spec-from-schema";
import { isUnsupportedSchemaError } from "./unsupported-schema-error";
import { MISSING_ANSWER_MESSAGE } from "./validate-answer";

/** A JSON Schema as a caller sends it: a parsed JSON object. */
export type JsonSchemaObject = Record<string, unknown>;

/**
 * The zod object schema made from a caller's JSON Schema, or why it cannot be asked: `path` is the
 * dotted path of the offending construct in the given schema (`properties.address.properties.geo`,
 * `properties.code.pattern`, `""` for the root), `message` says in the caller's terms what is not
 * supported and what to write instead.
 */
export type SchemaFromJsonSchemaResult = { ok: true; schema: z.ZodObject } | { ok: false; path: string; message: string };

/** Most properties in one schema, nested ones included. */
const MAX_PROPERTIES = 200;
/** Most choices in one `enum`, `oneOf` or `anyOf`. */
const MAX_CHOICES = 1000;
/** Most characters of the schema written as JSON. */
const MAX_SCHEMA_CHARACTERS = 1_000_000;
/** Longest `pattern`. */
const MAX_PATTERN_CHARACTERS = 1000;
/** Choices named in a plain refusal; beyond this it only counts them. */
const MAX_CHOICES_NAMED = 10;

const FORBIDDEN_NAMES = new Set(["__proto__", "constructor", "prototype"]);

/** Keywords that say something about a schema without changing what it accepts: ignored. */
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "$anchor",
  "$dynamicAnchor",
  "$vocabulary",
  "$defs",
  "definitions",
  "title",
  "description",
  "examples",
  "example",
  "readOnly",
  "writeOnly",
  "deprecated",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
]);

const STRING_KEYWORDS = ["minLength", "maxLength", "pattern", "format", "multiline"];
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const ARRAY_KEYWORDS = ["items", "minItems", "maxItems", "uniqueItems"];
const OBJECT_KEYWORDS = ["properties", "required", "additionalProperties"];
const CHOICE_KEYWORDS = ["enum", "const", "oneOf", "anyOf"];

/** The type each type-specific keyword belongs to, to tell a caller it is on the wrong type. */
const KEYWORD_TYPES: Record<string, string> = Object.fromEntries([
  ...STRING_KEYWORDS.map((keyword) => [keyword, "string"]),
  ...NUMBER_KEYWORDS.map((keyword) => [keyword, "number"]),
  ...ARRAY_KEYWORDS.map((keyword) => [keyword, "array"]),
  ...OBJECT_KEYWORDS.map((keyword) => [keyword, "object"]),
]);

const REF_ADVICE = "Parley does not resolve references; write the referenced schema out in place.";
const ONE_SHAPE_ADVICE = "Parley asks one question of one type per property.";
const LIST_PROPERTIES_ADVICE = 'list every property by name under "properties".';

/** JSON Schema keywords that change what is accepted and that Parley does not implement, with what to do instead. */
const UNSUPPORTED_KEYWORDS: Record<string, string> = {
  $ref: `"$ref" is not supported: ${REF_ADVICE}`,
  $dynamicRef: `"$dynamicRef" is not supported: ${REF_ADVICE}`,
  $recursiveRef: `"$recursiveRef" is not supported: ${REF_ADVICE}`,
  allOf: `"allOf" is not supported: merge its schemas into one. ${ONE_SHAPE_ADVICE}`,
  not: `"not" is not supported: say what is allowed instead, e.g. with "enum". ${ONE_SHAPE_ADVICE}`,
  if: `"if"/"then"/"else" are not supported: every question is asked the same way; check the condition once the answer arrives.`,
  then: `"if"/"then"/"else" are not supported: every question is asked the same way; check the condition once the answer arrives.`,
  else: `"if"/"then"/"else" are not supported: every question is asked the same way; check the condition once the answer arrives.`,
  dependentSchemas: `"dependentSchemas" is not supported: every question is asked the same way; check the dependency once the answer arrives.`,
  dependentRequired: `"dependentRequired" is not supported: list the properties that must be answered under "required".`,
  dependencies: `"dependencies" is not supported: list the properties that must be answered under "required".`,
  patternProperties: `"patternProperties" is not supported: ${LIST_PROPERTIES_ADVICE}`,
  propertyNames: `"propertyNames" is not supported: ${LIST_PROPERTIES_ADVICE}`,
  unevaluatedProperties: `"unevaluatedProperties" is not supported: ${LIST_PROPERTIES_ADVICE}`,
  minProperties: `"minProperties" is not supported: list the properties that must be answered under "required".`,
  maxProperties: `"maxProperties" is not supported: ${LIST_PROPERTIES_ADVICE}`,
  prefixItems: `tuples ("prefixItems") are not supported: use one "items" schema for every item, or separate properties.`,
  additionalItems: `"additionalItems" is not supported: use one "items" schema for every item.`,
  unevaluatedItems: `"unevaluatedItems" is not supported: use one "items" schema for every item.`,
  contains: `"contains" is not supported: use "items" with "enum" and "minItems".`,
  minContains: `"minContains" is not supported: use "items" with "enum" and "minItems".`,
  maxContains: `"maxContains" is not supported: use "items" with "enum" and "maxItems".`,
  nullable: `"nullable" (OpenAPI 3.0) is not supported: write "type": ["string", "null"] (with the property's own type).`,
};

const WHOLE_OBJECT_DEFAULT = 'A "default" for a whole object is not supported; give defaults to its properties instead.';

const FORMATS = ["date", "date-time", "email", "uri", "uuid"];

/** A refusal raised while reading the schema; caught in {@link schemaFromJsonSchema}, never escapes it. */
class Refused extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

type Primitive = string | number | boolean;

interface Choice {
  value: Primitive;
  title?: string;
  description?: string;
}

/** What a property's own schema says, before it is made optional, nullable or given its default. */
interface Body {
  schema: z.ZodType;
  nullable: boolean;
  isObject: boolean;
  title?: string;
  description?: string;
  /** The `default` keyword's value and where it was written. */
  default?: { value: unknown; path: string };
}

/** How a property's refusals are worded: its `errorMessage` verbatim, else plain sentences. */
interface Wording {
  errorMessage?: string;
}

interface Reading {
  properties: number;
}

/**
 * Turn the JSON Schema an API caller sends as `response_schema` into a zod object schema that
 * {@link specFromSchema} asks and `validateFormAnswer`/`validateTextAnswers` judge exactly as they do a
 * hand-written one. Never throws: a schema Parley cannot ask comes back as `{ ok: false, path, message }`.
 *
 * Supported: a root `{"type": "object", "properties", "required"}`; each property's `description`
 * (else `title`) as its question; `string` with `minLength`, `maxLength`, `pattern`, `format`
 * `date`, `date-time`, `email` or `uri`, and Parley's `multiline` (true: asked in a box of several
 * lines; false: on one line; absent: the other keywords decide); `number`/`integer` with `minimum`, `maximum`,
 * `exclusiveMinimum`, `exclusiveMaximum` (2020-12 numbers) and `multipleOf`; `boolean`; choices as
 * `enum` (all strings, all numbers or all booleans), `const`, or `oneOf`/`anyOf` of
 * `{ "const", "title"?, "description"? }` (the option's label and description); `array` of such
 * strings, numbers or choices with `minItems`, `maxItems`, `uniqueItems`; `default` (checked against
 * the property's own rules); a property that may be null as `"type": [X, "null"]` or
 * `"anyOf": [schema, {"type": "null"}]`; optional = not in `required`; one level of nested
 * `"type": "object"`; and `errorMessage` (a string), the wording of every refusal of that property —
 * a required one left empty included — and, on an object, of every property inside it that has no
 * `errorMessage` of its own.
 *
 * Keywords: annotations (`$schema`, `$id`, `title`, `examples`, `readOnly`, `deprecated`…) and
 * vendor extensions (`x-…`) are ignored, and so is `additionalProperties: false` or `true` (answers
 * are built from the listed properties only, and anything else is dropped from the value). Every
 * other keyword Parley does not implement is refused — `$ref`, `allOf`, `not`, `if`, tuples,
 * `patternProperties`, unknown formats, a keyword on a type it does not apply to, and keywords it
 * does not know at all (a misspelt `maxLenght`) — so that a caller is never silently checked less
 * than its schema says. Limits: 200 properties, 1000 choices per property, 1 MB of JSON.
 *
 * Known differences from a JSON Schema validator: lengths are counted in UTF-16 code units (as a
 * browser's `maxlength` does), so a character outside the Basic Multilingual Plane counts twice;
 * `date-time` requires seconds and a `Z` or offset; `uri` is what the WHATWG URL parser accepts.
 * A `pattern` is ECMA-262 (Unicode) and runs on a linear-time engine ({@link linearPattern}), never on
 * JavaScript's backtracking one: no pattern and answer can hold the server. What that engine cannot run
 * — look-arounds, back-references, flags inside the pattern, a repetition above 1000 — is refused.
 */
export function schemaFromJsonSchema(json: unknown): SchemaFromJsonSchemaResult {
  try {
    const schema = rootSchema(plainCopy(json));
    const problem = askable(schema);
    return problem ?? { ok: true, schema };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, path: error.path, message: error.message };
    // A getter that throws, a proxy, a cycle: the caller sent something that is not JSON.
    return { ok: false, path: "", message: "The schema could not be read as JSON. Send a JSON object." };
  }
}

/**
 * The schema as plain JSON: one reading, so nothing the caller passed (a getter, a proxy, a class)
 * runs again while it is interpreted; `__proto__` stays an own key, as `JSON.parse` makes it.
 */
function plainCopy(json: unknown): unknown {
  const text = JSON.stringify(json);
  if (typeof text !== "string") throw new Refused("", 'The schema must be a JSON object such as {"type": "object", "properties": {…}}.');
  if (text.length > MAX_SCHEMA_CHARACTERS) {
    throw new Refused("", `The schema is ${text.length} characters of JSON; Parley takes at most ${MAX_SCHEMA_CHARACTERS}. Ask fewer or shorter questions.`);
  }
  return JSON.parse(text) as unknown;
}

/** The spec is derived once here, so that an accepted schema is one every surface can ask. */
function askable(schema: z.ZodObject): SchemaFromJsonSchemaResult | undefined {
  try {
    specFromSchema(schema);
    return undefined;
  } catch (error) {
    if (!isUnsupportedSchemaError(error)) throw error;
    const path = error.path === "" ? "" : error.path.split(".").map((name) => `properties.${name}`).join(".");
    return { ok: false, path, message: error.message };
  }
}

function rootSchema(json: unknown): z.ZodObject {
  if (!isPlainObject(json)) throw new Refused("", 'The schema must be a JSON object such as {"type": "object", "properties": {…}}.');
  refuseUnsupported(json, "");
  const type = json.type;
  if (type !== "object" && !(type === undefined && "properties" in json)) {
    throw new Refused(at("", "type"), `The schema must have "type": "object" with its questions under "properties", not ${JSON.stringify(type) ?? "no type"}.`);
  }
  const wording: Wording = {};
  const errorMessage = readErrorMessage(json, "");
  if (errorMessage !== undefined) wording.errorMessage = errorMessage;
  return objectSchema(json, "", 0, wording, { properties: 0 });
}

/** An object: the root (level 0) or a property of it (level 1). */
function objectSchema(node: JsonSchemaObject, path: string, level: number, wording: Wording, reading: Reading): z.ZodObject {
  checkKeywords(node, path, "object", [...OBJECT_KEYWORDS, "type", "errorMessage"]);
  if (node.additionalProperties !== undefined && typeof node.additionalProperties !== "boolean") {
    throw new Refused(at(path, "additionalProperties"), `a schema for "additionalProperties" is not supported: ${LIST_PROPERTIES_ADVICE}`);
  }
  const properties = node.properties;
  if (!isPlainObject(properties) || Object.keys(properties).length === 0) {
    throw new Refused(at(path, "properties"), `${path === "" ? "The schema" : "An object"} needs "properties": at least one question, as {"name": {"type": "string", "description": "…"}}.`);
  }
  const required = requiredNames(node, path, properties);
  const shape = Object.create(null) as Record<string, z.ZodType>;
  for (const [name, child] of Object.entries(properties)) {
    const childPath = at(path, "properties", name);
    checkName(name, childPath);
    reading.properties += 1;
    if (reading.properties > MAX_PROPERTIES) throw new Refused(childPath, `The schema has more than ${MAX_PROPERTIES} properties; split it into several questions.`);
    shape[name] = propertySchema(child, childPath, level, wording, reading, required.has(name));
  }
  let object = z.object(shape, { error: typeError(wording, "Must be an object") });
  const meta = metaOf(node, path);
  if (meta !== undefined) object = object.meta(meta);
  return object;
}

function requiredNames(node: JsonSchemaObject, path: string, properties: JsonSchemaObject): Set<string> {
  const required = node.required ?? [];
  if (!Array.isArray(required) || !required.every((name): name is string => typeof name === "string")) {
    throw new Refused(at(path, "required"), '"required" must be a list of property names, such as ["amount"].');
  }
  for (const [index, name] of required.entries()) {
    if (!Object.hasOwn(properties, name)) {
      throw new Refused(at(path, "required", String(index)), `"required" names "${name}", which is not under "properties"; every required property must be described there.`);
    }
  }
  return new Set(required);
}

function checkName(name: string, path: string): void {
  if (name === "") throw new Refused(path, "A property needs a name.");
  if (name.includes(".")) throw new Refused(path, `The property name "${name}" contains a dot, which Parley uses to separate nested names; use another name.`);
  if (FORBIDDEN_NAMES.has(name)) throw new Refused(path, `"${name}" is not allowed as a property name; use another name.`);
}

/** One property: its body, then nullable, default or optional, and its question as meta. */
function propertySchema(raw: unknown, path: string, level: number, inherited: Wording, reading: Reading, required: boolean): z.ZodType {
  const node = schemaObject(raw, path);
  const errorMessage = readErrorMessage(node, path);
  const wording = errorMessage === undefined ? inherited : { errorMessage };
  const body = bodyOf(node, path, level, wording, reading);
  let schema = body.schema;
  if (body.isObject && body.nullable) throw new Refused(path, 'A nested object that may be null cannot be asked question by question; drop "null" from its type.');
  if (body.nullable) schema = schema.nullable();
  if (body.default !== undefined) {
    const checked = z.safeParse(schema, body.default.value);
    if (!checked.success) {
      const reason = checked.error.issues[0]?.message ?? "it is refused";
      throw new Refused(body.default.path, `The default ${preview(body.default.value)} does not pass the property's own rules (${reason}); use a default the property accepts.`);
    }
    schema = (schema as z.ZodString).default(body.default.value as string);
  } else if (!required) schema = schema.optional();
  const meta: { title?: string; description?: string } = {};
  if (body.title !== undefined) meta.title = body.title;
  if (body.description !== undefined) meta.description = body.description;
  return meta.title === undefined && meta.description === undefined ? schema : schema.meta(meta);
}

/** What a property's schema accepts, by its choices or its type. */
function bodyOf(node: JsonSchemaObject, path: string, level: number, wording: Wording, reading: Reading): Body {
  refuseUnsupported(node, path);
  const annotations = metaOf(node, path) ?? {};
  const defaultValue = Object.hasOwn(node, "default") ? { value: node.default, path: at(path, "default") } : undefined;
  const nullMember = Array.isArray(node.anyOf) ? nullableForm(node.anyOf) : undefined;
  if (nullMember !== undefined) {
    checkKeywords(node, path, "anyOf", ["anyOf", "default", "errorMessage"]);
    const memberPath = at(path, "anyOf", String(nullMember.index));
    const member = schemaObject(nullMember.member, memberPath);
    if (member.errorMessage !== undefined) throw new Refused(at(memberPath, "errorMessage"), 'Put "errorMessage" beside "anyOf", on the property itself.');
    const inner = bodyOf(member, memberPath, level, wording, reading);
    if (inner.default !== undefined && defaultValue !== undefined) throw new Refused(inner.default.path, 'Give "default" once, beside "anyOf".');
    const body: Body = { ...inner, nullable: true };
    const title = annotations.title ?? inner.title;
    const description = annotations.description ?? inner.description;
    if (title !== undefined) body.title = title;
    if (description !== undefined) body.description = description;
    if (defaultValue !== undefined) body.default = defaultValue;
    return body;
  }
  const { types, nullable } = readType(node, path);
  const body = CHOICE_KEYWORDS.some((keyword) => Object.hasOwn(node, keyword))
    ? choicesBody(node, path, types, nullable, wording)
    : typedBody(node, path, types, nullable, level, wording, reading);
  if (annotations.title !== undefined) body.title = annotations.title;
  if (annotations.description !== undefined) body.description = annotations.description;
  if (defaultValue !== undefined) body.default = defaultValue;
  return body;
}

/** `anyOf: [schema, {"type": "null"}]` (either order), as pydantic and zod write "may be null". */
function nullableForm(members: unknown[]): { member: unknown; index: number } | undefined {
  if (members.length !== 2) return undefined;
  const nullIndex = members.findIndex((member) => isPlainObject(member) && member.type === "null" && Object.keys(member).every((key) => key === "type" || isIgnored(key)));
  if (nullIndex === -1) return undefined;
  const index = 1 - nullIndex;
  const member = members[index];
  // Two choices one of which is null are choices, read as such below.
  if (isPlainObject(member) && Object.hasOwn(member, "const")) return undefined;
  return { member, index };
}

function readType(node: JsonSchemaObject, path: string): { types: string[] | undefined; nullable: boolean } {
  const type = node.type;
  if (type === undefined) return { types: undefined, nullable: false };
  const list = Array.isArray(type) ? type : [type];
  if (list.length === 0 || !list.every((entry): entry is string => typeof entry === "string")) {
    throw new Refused(at(path, "type"), '"type" must be a type name such as "string", or a type and "null" such as ["string", "null"].');
  }
  const nullable = list.includes("null");
  const types = [...new Set(list.filter((entry) => entry !== "null"))];
  if (types.length === 0) throw new Refused(at(path, "type"), 'A property whose only type is "null" has nothing to ask; give it a type such as "string".');
  if (types.length > 1) {
    throw new Refused(at(path, "type"), `A property of several types (${types.join(", ")}) has no single question form; use one type, optionally with "null".`);
  }
  return { types, nullable };
}

/** `enum`, `const`, or `oneOf`/`anyOf` of consts: a choice among fixed values. */
function choicesBody(node: JsonSchemaObject, path: string, types: string[] | undefined, typeNullable: boolean, wording: Wording): Body {
  const given = CHOICE_KEYWORDS.filter((keyword) => Object.hasOwn(node, keyword));
  if (given.length > 1) throw new Refused(at(path, given[1] ?? ""), `Use one of "enum", "const" or "oneOf" for a property's choices, not ${given.map((keyword) => `"${keyword}"`).join(" and ")}.`);
  const keyword = given[0] ?? "enum";
  checkKeywords(node, path, "choices", ["type", keyword, "default", "errorMessage"]);
  const read = keyword === "const" ? { choices: [{ value: node.const }], sawNull: node.const === null } : readChoices(node[keyword], keyword, path);
  const { choices, sawNull } = settleChoices(read.choices, at(path, keyword), keyword);
  const type = types?.[0];
  if (type !== undefined) {
    for (const [index, choice] of choices.entries()) {
      if (!fitsType(choice.value, type)) {
        throw new Refused(at(path, keyword, ...(keyword === "const" ? [] : [String(index)])), `The choice ${preview(choice.value)} is not of "type": "${type}"; make them agree.`);
      }
    }
    if (sawNull !== typeNullable) {
      throw new Refused(
        at(path, keyword),
        sawNull ? `"${keyword}" allows null but "type" does not; add "null" to "type" or remove null from "${keyword}".` : `"type" allows null but "${keyword}" does not; add null to "${keyword}" or remove "null" from "type".`,
      );
    }
  }
  return { schema: choicesSchema(choices, wording), nullable: sawNull, isObject: false };
}

function readChoices(list: unknown, keyword: string, path: string): { choices: { value: unknown; title?: string; description?: string }[]; sawNull: boolean } {
  const listPath = at(path, keyword);
  if (!Array.isArray(list) || list.length === 0) throw new Refused(listPath, `"${keyword}" must be a non-empty list of choices.`);
  if (list.length > MAX_CHOICES) throw new Refused(listPath, `"${keyword}" has ${list.length} choices; Parley offers at most ${MAX_CHOICES}. Ask for free text instead.`);
  if (keyword === "enum") return { choices: list.map((value: unknown) => ({ value })), sawNull: list.includes(null) };
  const choices: { value: unknown; title?: string; description?: string }[] = [];
  let sawNull = false;
  for (const [index, member] of list.entries()) {
    const memberPath = at(listPath, String(index));
    if (!isPlainObject(member) || !(Object.hasOwn(member, "const") || (member.type === "null" && !Object.hasOwn(member, "enum")))) {
      throw new Refused(
        memberPath,
        `"${keyword}" is supported only as a list of choices, each {"const": value, "title"?: "…", "description"?: "…"}${keyword === "anyOf" ? ', or as [schema, {"type": "null"}] for a property that may be null' : ""}. ${ONE_SHAPE_ADVICE}`,
      );
    }
    refuseUnsupported(member, memberPath);
    checkKeywords(member, memberPath, "choice", ["const", "type"]);
    const value = Object.hasOwn(member, "const") ? member.const : null;
    if (member.type !== undefined && !(value === null ? member.type === "null" : typeof member.type === "string" && fitsType(value, member.type))) {
      throw new Refused(at(memberPath, "type"), `The choice ${preview(value)} is not of "type": ${JSON.stringify(member.type)}; make them agree.`);
    }
    if (value === null) {
      sawNull = true;
      continue;
    }
    const choice: { value: unknown; title?: string; description?: string } = { value };
    const meta = metaOf(member, memberPath);
    if (meta?.title !== undefined) choice.title = meta.title;
    if (meta?.description !== undefined) choice.description = meta.description;
    choices.push(choice);
  }
  return { choices, sawNull };
}

/** Choices of one primitive type, duplicates dropped; null is reported apart, as "may be null". */
function settleChoices(read: { value: unknown; title?: string; description?: string }[], path: string, keyword: string): { choices: Choice[]; sawNull: boolean } {
  const choices: Choice[] = [];
  let sawNull = false;
  let kind: string | undefined;
  for (const [index, entry] of read.entries()) {
    const value = entry.value;
    if (value === null) {
      sawNull = true;
      continue;
    }
    const entryPath = keyword === "const" ? path : at(path, String(index));
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new Refused(entryPath, `The choice ${preview(value)} cannot be offered: choices are text, numbers or true/false, not lists or objects.`);
    }
    kind ??= typeof value;
    if (typeof value !== kind) throw new Refused(entryPath, `The choices mix ${kind}s and ${typeof value}s; offer choices of one kind (all text, all numbers or all true/false).`);
    if (choices.some((choice) => choice.value === value)) continue;
    const choice: Choice = { value };
    if (entry.title !== undefined) choice.title = entry.title;
    if (entry.description !== undefined) choice.description = entry.description;
    choices.push(choice);
  }
  if (choices.length === 0) throw new Refused(path, `"${keyword}" offers only null; give at least one choice besides null.`);
  return { choices, sawNull };
}

function fitsType(value: unknown, type: string): boolean {
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  return typeof value === type;
}

/** A union of literals, each with its label and description as meta, the way specFromSchema reads options. */
function choicesSchema(choices: Choice[], wording: Wording): z.ZodType {
  const labels = choices.map((choice) => choice.title ?? String(choice.value));
  const plain =
    labels.length === 1 ? `Must be ${labels[0]}` : labels.length <= MAX_CHOICES_NAMED ? `Choose one of: ${labels.join(", ")}` : `Choose one of the ${labels.length} offered answers`;
  const error = typeError(wording, plain, plain);
  const literals = choices.map((choice) => {
    // A one-option union is parsed as its option alone, so the literal carries the wording too.
    const literal = z.literal(choice.value, { error });
    const meta: { title?: string; description?: string } = {};
    if (choice.title !== undefined) meta.title = choice.title;
    if (choice.description !== undefined) meta.description = choice.description;
    return meta.title === undefined && meta.description === undefined ? literal : literal.meta(meta);
  });
  return z.union(literals as [z.ZodLiteral, ...z.ZodLiteral[]], { error });
}

function typedBody(node: JsonSchemaObject, path: string, types: string[] | undefined, nullable: boolean, level: number, wording: Wording, reading: Reading): Body {
  const type = types?.[0];
  if (type === undefined) {
    throw new Refused(path, 'A property needs a "type" ("string", "number", "integer", "boolean", "array" or "object"), or its choices as "enum" or "oneOf".');
  }
  switch (type) {
    case "string":
      checkKeywords(node, path, type, ["type", "default", "errorMessage", ...STRING_KEYWORDS]);
      return { schema: stringSchema(node, path, wording), nullable, isObject: false };
    case "number":
    case "integer":
      checkKeywords(node, path, type, ["type", "default", "errorMessage", ...NUMBER_KEYWORDS]);
      return { schema: numberSchema(node, path, type === "integer", wording), nullable, isObject: false };
    case "boolean":
      checkKeywords(node, path, type, ["type", "default", "errorMessage"]);
      return { schema: z.boolean({ error: typeError(wording, "Must be yes or no (true or false)") }), nullable, isObject: false };
    case "array":
      checkKeywords(node, path, type, ["type", "default", "errorMessage", ...ARRAY_KEYWORDS]);
      return { schema: arraySchema(node, path, wording), nullable, isObject: false };
    case "object":
      if (level >= 1) {
        throw new Refused(path, "Objects nested more than one level deep cannot be asked; move these properties up into the enclosing object, or ask them separately.");
      }
      return { schema: objectSchema(node, path, level + 1, wording, reading), nullable, isObject: true };
    default:
      throw new Refused(at(path, "type"), `"type": ${JSON.stringify(type)} is not a type Parley can ask; use "string", "number", "integer", "boolean", "array" or "object".`);
  }
}

function stringSchema(node: JsonSchemaObject, path: string, wording: Wording): z.ZodType {
  const format = node.format;
  if (format !== undefined && (typeof format !== "string" || !FORMATS.includes(format))) {
    throw new Refused(at(path, "format"), `"format": ${JSON.stringify(format)} is not checked by Parley; use one of ${FORMATS.map((name) => `"${name}"`).join(", ")}, or a "pattern".`);
  }
  // The format is the first check and aborts, so a malformed answer is told once, not also refused by a pattern for it.
  let schema: z.ZodString | z.ZodStringFormat;
  switch (format) {
    case "email":
      schema = z.email({ error: typeError(wording, "Must be text", "Must be a valid email address"), abort: true });
      break;
    case "uri":
      schema = z.url({ error: typeError(wording, "Must be text", "Must be a valid URL, such as https://example.com"), abort: true });
      break;
    case "date":
      schema = z.iso.date({ error: typeError(wording, "Must be text", "Must be a date as YYYY-MM-DD, such as 2025-03-14"), abort: true });
      break;
    case "date-time":
      schema = z.iso.datetime({ offset: true, error: typeError(wording, "Must be text", "Must be a date and time such as 2025-03-14T09:30:00Z"), abort: true });
      break;
    case "uuid":
      schema = z.uuid({ error: typeError(wording, "Must be text", "Must be a UUID, such as 123e4567-e89b-42d3-a456-426614174000"), abort: true });
      break;
    default:
      schema = z.string({ error: typeError(wording, "Must be text") });
  }
  const minLength = count(node, "minLength", path);
  const maxLength = count(node, "maxLength", path);
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
    throw new Refused(at(path, "minLength"), `"minLength" ${minLength} is above "maxLength" ${maxLength}, so no answer could pass.`);
  }
  if (minLength !== undefined) schema = schema.min(minLength, check(wording, `Must be at least ${plural(minLength, "character")}`));
  if (maxLength !== undefined) schema = schema.max(maxLength, check(wording, `Must be at most ${plural(maxLength, "character")}`));
  if (node.pattern !== undefined) {
    const pattern = node.pattern;
    const patternPath = at(path, "pattern");
    if (typeof pattern !== "string") throw new Refused(patternPath, '"pattern" must be a regular expression written as a string.');
    if (pattern.length > MAX_PATTERN_CHARACTERS) throw new Refused(patternPath, `"pattern" is longer than ${MAX_PATTERN_CHARACTERS} characters; use a shorter expression.`);
    try {
      // Compiled only for JavaScript's own syntax error, never run: JSON Schema patterns are ECMA-262 with Unicode.
      new RegExp(pattern, "u");
    } catch (error) {
      throw new Refused(patternPath, `"pattern" is not a valid JavaScript regular expression (${error instanceof Error ? error.message : "it does not compile"}).`);
    }
    const linear = linearPattern(pattern);
    if (!linear.ok) throw new Refused(patternPath, `"pattern" cannot be used: ${linear.reason}.`);
    // A refinement, not .regex(): zod would run a RegExp on JavaScript's backtracking engine. It also keeps
    // specFromSchema from offering it as a browser `pattern` hint, which the browser would anchor.
    const expression = linear.pattern;
    schema = schema.refine((text) => expression.test(text), check(wording, pattern.length <= 60 ? `Must match the pattern ${pattern}` : "Is not in the expected form"));
  }
  if (node.multiline !== undefined) {
    if (typeof node.multiline !== "boolean") throw new Refused(at(path, "multiline"), '"multiline" must be true (a box of several lines) or false (one line).');
    return schema.meta({ multiline: node.multiline });
  }
  return schema;
}

function numberSchema(node: JsonSchemaObject, path: string, integer: boolean, wording: Wording): z.ZodType {
  let schema = integer
    ? z.int({ error: typeError(wording, "Must be a whole number", (issue) => (issue.code === "too_big" ? "Is too large a number" : issue.code === "too_small" ? "Is too small a number" : "Must be a whole number")) })
    : z.number({ error: typeError(wording, "Must be a number") });
  for (const keyword of ["exclusiveMinimum", "exclusiveMaximum"]) {
    if (typeof node[keyword] === "boolean") {
      throw new Refused(at(path, keyword), `"${keyword}": ${String(node[keyword])} is the old draft-4 form; write the bound itself, e.g. "${keyword}": 0.`);
    }
  }
  // z.toJSONSchema writes z.int()'s own safe range as bounds; restated, they would only show as hints.
  const minimum = integer && node.minimum === Number.MIN_SAFE_INTEGER ? undefined : bound(node, "minimum", path);
  const maximum = integer && node.maximum === Number.MAX_SAFE_INTEGER ? undefined : bound(node, "maximum", path);
  const exclusiveMinimum = bound(node, "exclusiveMinimum", path);
  const exclusiveMaximum = bound(node, "exclusiveMaximum", path);
  const lowest = Math.max(minimum ?? -Infinity, exclusiveMinimum ?? -Infinity);
  const highest = Math.min(maximum ?? Infinity, exclusiveMaximum ?? Infinity);
  if (lowest > highest || (lowest === highest && (lowest === exclusiveMinimum || highest === exclusiveMaximum))) {
    throw new Refused(path, "Its lower bound is not below its upper bound, so no answer could pass; check minimum, maximum, exclusiveMinimum and exclusiveMaximum.");
  }
  if (minimum !== undefined) schema = schema.gte(minimum, check(wording, `Must be at least ${minimum}`));
  if (exclusiveMinimum !== undefined) schema = schema.gt(exclusiveMinimum, check(wording, `Must be more than ${exclusiveMinimum}`));
  if (maximum !== undefined) schema = schema.lte(maximum, check(wording, `Must be at most ${maximum}`));
  if (exclusiveMaximum !== undefined) schema = schema.lt(exclusiveMaximum, check(wording, `Must be less than ${exclusiveMaximum}`));
  const multipleOf = bound(node, "multipleOf", path);
  if (multipleOf !== undefined) {
    if (multipleOf <= 0) throw new Refused(at(path, "multipleOf"), '"multipleOf" must be above 0.');
    schema = schema.multipleOf(multipleOf, check(wording, `Must be a multiple of ${multipleOf}`));
  }
  return schema;
}

function arraySchema(node: JsonSchemaObject, path: string, wording: Wording): z.ZodType {
  const itemsPath = at(path, "items");
  if (Array.isArray(node.items)) throw new Refused(itemsPath, 'Tuples ("items" as a list) are not supported: use one "items" schema for every item, or separate properties.');
  if (node.items === undefined) throw new Refused(itemsPath, 'A list needs "items", e.g. {"type": "string"} or {"enum": ["a", "b"]}.');
  const items = schemaObject(node.items, itemsPath);
  refuseUnsupported(items, itemsPath);
  if (items.anyOf !== undefined && Array.isArray(items.anyOf) && nullableForm(items.anyOf) !== undefined) {
    throw new Refused(itemsPath, "List items cannot be null; say that the whole list may be null instead.");
  }
  const { types, nullable } = readType(items, itemsPath);
  if (nullable) throw new Refused(at(itemsPath, "type"), "List items cannot be null; say that the whole list may be null instead.");
  let element: z.ZodType;
  let choices = false;
  if (CHOICE_KEYWORDS.some((keyword) => Object.hasOwn(items, keyword))) {
    choices = true;
    for (const keyword of ["default", "errorMessage"]) {
      if (Object.hasOwn(items, keyword)) throw new Refused(at(itemsPath, keyword), `Put "${keyword}" on the list itself, not on its items.`);
    }
    const body = choicesBody(items, itemsPath, types, false, wording);
    if (body.nullable) throw new Refused(itemsPath, "List items cannot be null; say that the whole list may be null instead.");
    element = body.schema;
  } else {
    const type = types?.[0];
    if (type === "object" || type === "array" || type === "boolean") {
      const what = type === "object" ? "objects" : type === "array" ? "lists" : "yes/no answers";
      throw new Refused(at(itemsPath, "type"), `A list of ${what} cannot be asked on one line; use a list of text, numbers or choices ("enum"), or separate properties.`);
    }
    if (type === undefined) throw new Refused(itemsPath, 'List items need a "type" ("string", "number" or "integer") or choices ("enum").');
    for (const keyword of ["default", "errorMessage"]) {
      if (Object.hasOwn(items, keyword)) throw new Refused(at(itemsPath, keyword), `Put "${keyword}" on the list itself, not on its items.`);
    }
    element = typedBody(items, itemsPath, types, false, 1, wording, { properties: 0 }).schema;
  }
  let schema = z.array(element, { error: typeError(wording, "Must be a list") });
  const minItems = count(node, "minItems", path);
  const maxItems = count(node, "maxItems", path);
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) {
    throw new Refused(at(path, "minItems"), `"minItems" ${minItems} is above "maxItems" ${maxItems}, so no answer could pass.`);
  }
  const noun = choices ? "Choose" : "Give";
  const unit = choices ? "option" : "item";
  if (minItems !== undefined) schema = schema.min(minItems, check(wording, `${noun} at least ${plural(minItems, unit)}`));
  if (maxItems !== undefined) schema = schema.max(maxItems, check(wording, `${noun} at most ${plural(maxItems, unit)}`));
  if (node.uniqueItems !== undefined && typeof node.uniqueItems !== "boolean") throw new Refused(at(path, "uniqueItems"), '"uniqueItems" must be true or false.');
  if (node.uniqueItems === true) {
    return schema.refine((values) => new Set(values).size === values.length, check(wording, choices ? "Choose each option only once" : "Give each item only once"));
  }
  return schema;
}

/** A non-negative whole number keyword (`minLength`, `minItems`…). */
function count(node: JsonSchemaObject, keyword: string, path: string): number | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new Refused(at(path, keyword), `"${keyword}" must be a whole number of 0 or more.`);
  return value;
}

/** A numeric bound (`minimum`, `multipleOf`…). */
function bound(node: JsonSchemaObject, keyword: string, path: string): number | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Refused(at(path, keyword), `"${keyword}" must be a number.`);
  return value;
}

/** Refuse the keywords Parley knows and does not implement, `$ref` first: it usually explains the rest. */
function refuseUnsupported(node: JsonSchemaObject, path: string): void {
  const keys = Object.keys(node).sort((a, b) => Number(b === "$ref") - Number(a === "$ref"));
  for (const key of keys) {
    const message = UNSUPPORTED_KEYWORDS[key];
    if (message !== undefined) throw new Refused(at(path, key), message);
  }
}

/**
 * Every keyword of a schema is one it implements (`allowed`), an annotation, or a vendor
 * extension; anything else is refused, so a keyword is never silently left unchecked.
 */
function checkKeywords(node: JsonSchemaObject, path: string, kind: string, allowed: readonly string[]): void {
  for (const key of Object.keys(node)) {
    if (allowed.includes(key) || isIgnored(key)) continue;
    const keyPath = at(path, key);
    const unsupported = UNSUPPORTED_KEYWORDS[key];
    if (unsupported !== undefined) throw new Refused(keyPath, unsupported);
    const belongsTo = KEYWORD_TYPES[key];
    const known = belongsTo !== undefined || key === "type" || key === "default" || key === "errorMessage" || CHOICE_KEYWORDS.includes(key);
    if (!known) throw new Refused(keyPath, `"${key}" is not a keyword Parley knows, so it cannot check it; remove it (or prefix a vendor extension with "x-").`);
    if (kind === "anyOf") throw new Refused(keyPath, `Put "${key}" inside the member of "anyOf" that is not null, not beside "anyOf".`);
    if (kind === "choice") throw new Refused(keyPath, `A choice is {"const": value, "title"?: "…", "description"?: "…"}; "${key}" is not supported in it.`);
    if (kind === "choices") throw new Refused(keyPath, `"${key}" cannot be combined with "enum", "const" or "oneOf"; list only the allowed values.`);
    if (key === "default" && kind === "object") throw new Refused(keyPath, WHOLE_OBJECT_DEFAULT);
    if (belongsTo !== undefined) throw new Refused(keyPath, `"${key}" applies to ${belongsTo === "number" ? "numbers" : `${belongsTo}s`}, but this is of type "${kind}".`);
    if (CHOICE_KEYWORDS.includes(key)) throw new Refused(keyPath, `"${key}" is not supported here; choices go on a property or a list's "items".`);
    throw new Refused(keyPath, `"${key}" is not supported here; put it on a property.`);
  }
}

function isIgnored(key: string): boolean {
  return ANNOTATIONS.has(key) || key.startsWith("x-");
}

function metaOf(node: JsonSchemaObject, path: string): { title?: string; description?: string } | undefined {
  const meta: { title?: string; description?: string } = {};
  for (const key of ["title", "description"] as const) {
    const value = node[key];
    if (value === undefined) continue;
    if (typeof value !== "string") throw new Refused(at(path, key), `"${key}" must be text.`);
    meta[key] = value;
  }
  return meta.title === undefined && meta.description === undefined ? undefined : meta;
}

function readErrorMessage(node: JsonSchemaObject, path: string): string | undefined {
  const value = node.errorMessage;
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new Refused(at(path, "errorMessage"), '"errorMessage" must be one non-empty string, used for every refusal of this property; messages per keyword are not supported.');
  }
  return value;
}

function schemaObject(raw: unknown, path: string): JsonSchemaObject {
  if (isPlainObject(raw)) return raw;
  throw new Refused(path, `This must be a schema object such as {"type": "string"}, not ${preview(raw)}.`);
}

function isPlainObject(value: unknown): value is JsonSchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The message of a schema's own issues (wrong type, a format, a choice not offered): the
 * property's `errorMessage`, else "needs an answer" when it was left empty, else `plain`.
 */
function typeError(wording: Wording, wrongType: string, other: string | ((issue: z.core.$ZodRawIssue) => string) = wrongType): z.core.$ZodErrorMap {
  return (issue) => {
    if (wording.errorMessage !== undefined) return wording.errorMessage;
    if (issue.input === undefined) return MISSING_ANSWER_MESSAGE;
    if (issue.code === "invalid_type") return wrongType;
    return typeof other === "string" ? other : other(issue);
  };
}

/**
 * The parameters of one check: its plain sentence, or the property's `errorMessage` — then the
 * first failure stops the rest, since every further refusal would repeat the same words.
 */
function check(wording: Wording, plain: string): { error: string; abort?: boolean } {
  return wording.errorMessage === undefined ? { error: plain } : { error: wording.errorMessage, abort: true };
}

function plural(amount: number, noun: string): string {
  return `${amount} ${amount === 1 ? noun : `${noun}s`}`;
}

/** A JSON value, shortened for a message. */
function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** A dotted path in the caller's schema; `""` is the root. */
function at(path: string, ...segments: string[]): string {
  return [path, ...segments].filter((segment, index) => index > 0 || segment !== "").join(".");
}
