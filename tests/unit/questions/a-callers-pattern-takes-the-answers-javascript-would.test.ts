import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { linearPattern } from "@/lib/questions";

/** What the linear-time engine says of `text`, for a pattern it runs. */
function linear(pattern: string, text: string): boolean {
  const compiled = linearPattern(pattern);
  if (!compiled.ok) throw new Error(`${pattern} was refused: ${compiled.reason}`);
  return compiled.pattern.test(text);
}

/** Characters on which the two dialects differ unless translated: line terminators, Unicode spaces, astral and accented letters. */
const TRICKY = ["a", "Z", "é", "1", "_", " ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u2028", "\u2029", "\ufeff", "\u3000", "😀", "-", ".", "[", "]", "^", "\\", "/", ",", "\b"];

describe("a caller's pattern on the linear-time engine", () => {
  it.each([
    ["^.$", ["a", "\n", "\r", "\u2028", "\u2029", "😀", "é"]],
    ["^\\s$", [" ", "\t", "\v", "\u00a0", "\u2028", "\ufeff", "\u3000", "a", "\u200b"]],
    ["^\\S+$", ["abc", "a b", "\u00a0", "😀"]],
    ["^[^\\s,]+$", ["a", "a,b", "a\u00a0b"]],
    ["^\\u0041\\u{1F600}\\uD83D\\uDE00$", ["A😀😀", "A😀"]],
    ["^\\cJ\\x41[\\b]$", ["\nA\b", "\nAb"]],
    ["^[]$|^x[^]$", ["", "x\n", "x😀", "y"]],
    ["^\\p{Lu}\\p{Letter}\\p{Script=Greek}\\P{N}$", ["ÉaαZ", "ÉaαZ1", "Éaa!"]],
    ["^(?<year>\\d{4})-\\d{2}$", ["2025-03", "25-03"]],
    ["^[\\w.+-]+@[a-z]+\\.(com|org)$", ["a.b+c@x.com", "a@x.net"]],
    ["\\bcat\\b", ["a cat!", "concat"]],
    ["^[\\^\\]\\[\\\\-]+$", ["^]-[\\", "a"]],
    ["^a{2,3}$", ["a", "aa", "aaaa"]],
  ] as const)("%s takes exactly what JavaScript's engine takes", (pattern, texts) => {
    for (const text of texts) expect(linear(pattern, text), `${JSON.stringify(text)}`).toBe(new RegExp(pattern, "u").test(text));
  });

  it("agrees with JavaScript's engine on random patterns and short answers (fuzzed)", () => {
    fc.assert(
      fc.property(randomPattern(), fc.array(fc.constantFrom(...TRICKY), { maxLength: 6 }), (pattern, characters) => {
        const text = characters.join("");
        expect(linear(pattern, text)).toBe(new RegExp(pattern, "u").test(text));
      }),
      { numRuns: 2000 },
    );
  });
});

/** Patterns built from the pieces whose meaning differs between ECMA-262 and RE2 unless translated. */
function randomPattern(): fc.Arbitrary<string> {
  const { atom } = fc.letrec<{ atom: string }>((tie) => ({
    atom: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom("a", "é", "1", ".", "\\s", "\\S", "\\d", "\\D", "\\w", "\\W", "\\b", "\\B", "\\n", "\\v", "\\u00a0", "\\u{1F600}", "\\x41", "\\cJ", "\\.", "\\^"),
      fc.constantFrom("[a-z]", "[^a-z]", "[\\s]", "[^\\s]", "[\\w.-]", "[\\b]", "[]", "[^]", "[\\u2028-\\u2029]", "[é😀]", "[\\^\\]]", "[\\d\\s]", "\\p{L}", "\\P{L}", "[\\p{Lu}\\p{Nd}]"),
      fc.tuple(tie("atom"), tie("atom")).map(([left, right]) => `(?:${left}|${right})`),
      fc.tuple(tie("atom"), tie("atom")).map(([left, right]) => `${left}${right}`),
      fc.tuple(tie("atom"), fc.constantFrom("*", "+", "?", "{2}", "{1,2}", "*?")).map(([inner, quantifier]) => `(${inner})${quantifier}`),
    ),
  }));
  return fc.tuple(fc.boolean(), atom, fc.boolean()).map(([start, body, end]) => `${start ? "^" : ""}${body}${end ? "$" : ""}`);
}
