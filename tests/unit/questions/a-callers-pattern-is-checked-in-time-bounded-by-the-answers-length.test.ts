import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { schemaFromJsonSchema } from "@/lib/questions";

const schemaWith = (pattern: string, extra: Record<string, unknown> = {}) => ({ type: "object", properties: { code: { type: "string", pattern, ...extra } }, required: ["code"] });

/**
 * Well above what a linear-time check of these answers takes (well under a millisecond), and well
 * below what a backtracking engine takes on them: each extra character doubles that, to seconds at 25.
 */
const BOUND_MS = 250;

/** The pattern's schema, and how long it takes to judge `answer` with it. */
function judge(pattern: string, answer: string): { accepted: boolean; milliseconds: number } {
  const converted = schemaFromJsonSchema(schemaWith(pattern));
  if (!converted.ok) throw new Error(`${pattern} was refused: ${converted.message}`);
  const started = performance.now();
  const accepted = converted.schema.safeParse({ code: answer }).success;
  return { accepted, milliseconds: performance.now() - started };
}

/** Shapes that hold a backtracking engine for seconds on a short answer that fails near its end: pattern, what it repeats, an answer it takes. */
const CATASTROPHIC = [
  ["^(?:a|a)+$", "a", "aaa"],
  ["(a|aa)+$", "a", "aaa"],
  ["^\\d*\\d*\\d*\\d*\\d*x$", "1", "12x"],
  ["^([a-z]|[a-z0-9])+$", "a", "ab9"],
  ["^(a+)+$", "a", "aa"],
  ["^(a*)*$", "a", ""],
  ["^(\\w+\\s?)*$", "a", "ab cd"],
  ["^(.*,)+$", ",", "a,b,"],
  ["^([a-z]+\\d*){2,}$", "a", "ab1c"],
  ["^(?:[a-z]+)+$", "a", "abc"],
  ["^(\\w|\\d)+$", "1", "a1"],
  ["^(a|a?)+$", "a", "aa"],
  ["^(\\s*\\d*)*$", "1", "1 2"],
] as const;

describe("a caller's pattern", () => {
  it.each(CATASTROPHIC)("%s judges a 25-character answer that fails at its end at once", (pattern, unit) => {
    const { accepted, milliseconds } = judge(pattern, `${unit.repeat(25)}!`);
    expect(accepted).toBe(false);
    expect(milliseconds).toBeLessThan(BOUND_MS);
  });

  it.each(CATASTROPHIC)("%s judges a 20,000-character answer in time bounded by its length", (pattern, unit) => {
    expect(judge(pattern, `${unit.repeat(20_000)}!`).milliseconds).toBeLessThan(BOUND_MS * 4);
  });

  it.each(CATASTROPHIC)("%s still takes the answers it describes", (pattern, _unit, taken) => {
    expect(judge(pattern, taken).accepted).toBe(true);
  });

  it("whose default would take minutes to check is judged, and refused on its default, at once", () => {
    const started = performance.now();
    const result = schemaFromJsonSchema(schemaWith("^(?:a|a)+$", { default: `${"a".repeat(30)}!` }));
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(result).toMatchObject({ ok: false, path: "properties.code.default" });
  });

  it("of any shape judges any answer within the bound (fuzzed)", () => {
    fc.assert(
      fc.property(catastrophicPattern(), fc.constantFrom("a", "1", " ", ",", "ab"), fc.integer({ min: 20, max: 40 }), (pattern, unit, times) => {
        expect(judge(pattern, `${unit.repeat(times)}!`).milliseconds).toBeLessThan(BOUND_MS);
      }),
      { numRuns: 300 },
    );
  });
});

/** Nested and overlapping repetitions over a tiny alphabet: the shapes backtracking engines choke on. */
function catastrophicPattern(): fc.Arbitrary<string> {
  const { atom } = fc.letrec<{ atom: string }>((tie) => ({
    atom: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom("a", "\\d", "\\w", "\\s", "[a-z]", "[a-z0-9]", ".", "a?", "\\S", "[^!]", ","),
      fc.tuple(tie("atom"), tie("atom")).map(([left, right]) => `(?:${left}|${right})`),
      fc.tuple(tie("atom"), tie("atom")).map(([left, right]) => `${left}${right}`),
      fc.tuple(tie("atom"), fc.constantFrom("*", "+", "{2,}", "{1,5}")).map(([inner, quantifier]) => `(${inner})${quantifier}`),
    ),
  }));
  return fc.tuple(fc.boolean(), atom).map(([anchored, body]) => `${anchored ? "^" : ""}(?:${body})+$`);
}
