/**
 * Benchmark 7 — checking a caller's pattern (`npm run bench -- pattern-check`), issue 29.
 *
 * A JSON Schema `pattern` from the API or MCP used to run on JavaScript's backtracking engine (zod's
 * `.regex()`), guarded by a guess at which shapes are slow; it now runs on RE2's linear-time engine
 * (re2js), translated from ECMA-262 by `linearPattern`. Both engines are timed here on the same
 * patterns and answers, in one process, alternating sample by sample:
 *
 * 1. ordinary patterns and answers: the cost of one check, before (backtracking) and after (linear);
 * 2. the shapes an attacker sent: one failing answer of growing length, on each engine (the
 *    backtracking engine only up to a length that ends in seconds);
 * 3. reading a pattern when an ask is created: compile on each engine (after: translate + compile).
 *
 * Run: `npm run bench -- pattern-check`. Sizes, from the environment: BENCH_PATTERN_SAMPLES [200],
 * BENCH_PATTERN_BATCH (checks per sample) [200]. No database is used.
 */
import { linearPattern } from "@/lib/questions/linear-pattern";
import { describeMachine } from "./support/machine";
import { benchCommand, setting, table, writeSection } from "./support/results";
import { figure, summarise } from "./support/stats";

const NAME = "pattern-check";
const SAMPLES = setting("BENCH_PATTERN_SAMPLES", 200);
const BATCH = setting("BENCH_PATTERN_BATCH", 200);
const log = (line: string) => console.log(`[${NAME}] ${line}`);

function linear(pattern: string) {
  const compiled = linearPattern(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.reason}`);
  return compiled.pattern;
}

/** Median and p95 microseconds of one call of each contender, alternating sample by sample. */
function race(contenders: readonly (() => unknown)[], batch = BATCH, samples = SAMPLES): { median: number; p95: number }[] {
  const times: number[][] = contenders.map(() => []);
  for (let warm = 0; warm < 20; warm++) for (const run of contenders) run();
  for (let sample = 0; sample < samples; sample++) {
    contenders.forEach((run, index) => {
      const started = performance.now();
      for (let n = 0; n < batch; n++) run();
      times[index]!.push(((performance.now() - started) * 1000) / batch);
    });
  }
  return times.map((each) => {
    const summary = summarise(each);
    return { median: summary.median, p95: summary.p95 };
  });
}

const µs = (value: number) => `${figure(value)} µs`;

const ORDINARY: [string, string, string][] = [
  ["a currency code", "^[A-Z]{3}$", "EUR"],
  ["a date", "^\\d{4}-\\d{2}-\\d{2}$", "2026-12-05"],
  ["an email", "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$", "ada.lovelace@example.com"],
  ["a 60-character slug", "^[a-z]+(-[a-z]+)*$", `${"word-".repeat(12)}end`],
  ["10,000 characters of free text", "^[^<>]*$", "Lorem ipsum dolor sit amet. ".repeat(358).slice(0, 10_000)],
];

log("ordinary patterns…");
const ordinaryRows = ORDINARY.map(([label, pattern, answer]) => {
  const backtracking = new RegExp(pattern, "u");
  const re2 = linear(pattern);
  if (backtracking.test(answer) !== re2.test(answer) || !re2.test(answer)) throw new Error(`${label}: the engines disagree or refuse`);
  const batch = answer.length > 1000 ? 10 : BATCH;
  const [before, after] = race([() => backtracking.test(answer), () => re2.test(answer)], batch);
  return [label, `\`${pattern}\``, µs(before!.median), µs(after!.median), µs(after!.p95), `${figure(after!.median / before!.median)}×`];
});

const HOSTILE: [string, string][] = [
  ["^(?:a|a)+$", "a"],
  ["^([a-z]|[a-z0-9])+$", "a"],
  ["^\\d*\\d*\\d*\\d*\\d*x$", "1"],
  ["^(a+)+$", "a"],
];
/** Lengths the backtracking engine is timed at: each character doubles its time, so it stops early. */
const BACKTRACKING_LENGTHS = [12, 16, 20, 22];
const LINEAR_LENGTHS = [27, 1_000, 100_000];

log("hostile shapes…");
const hostileRows = HOSTILE.map(([pattern, unit]) => {
  const backtracking = new RegExp(pattern, "u");
  const re2 = linear(pattern);
  const once = (test: (text: string) => boolean, length: number) => {
    const text = `${unit.repeat(length)}!`;
    const started = performance.now();
    if (test(text)) throw new Error(`${pattern} took a failing answer`);
    return performance.now() - started;
  };
  const before = BACKTRACKING_LENGTHS.map((length) => `${length}: ${figure(Math.min(...[0, 1, 2].map(() => once((text) => backtracking.test(text), length))))} ms`);
  const after = LINEAR_LENGTHS.map((length) => `${length.toLocaleString("en")}: ${figure(Math.min(...[0, 1, 2].map(() => once((text) => re2.test(text), length))))} ms`);
  return [`\`${pattern}\``, before.join(", "), after.join(", ")];
});

log("reading patterns…");
const readingRows = ORDINARY.slice(0, 4).map(([label, pattern]) => {
  const [before, after] = race([() => new RegExp(pattern, "u"), () => linear(pattern)], 50, 100);
  return [label, µs(before!.median), µs(after!.median), µs(after!.p95)];
});

writeSection(
  NAME,
  `## 7. Checking a caller's pattern (issue 29)

A JSON Schema \`pattern\` from outside the code, judged on JavaScript's backtracking engine (before:
what zod's \`.regex()\` ran) and on RE2's linear-time engine (after: re2js, translated from ECMA-262 by
\`linearPattern\`), in one process, alternating sample by sample (${SAMPLES} samples).

One check of an ordinary answer (median; p95 after):

${table(["answer", "pattern", "before", "after", "after p95", "after ÷ before"], ordinaryRows)}

One failing answer of growing length (\`unit × n\` then \`!\`), best of three; the backtracking engine
is stopped at 22 characters, where each further one doubles its time (27 held a server for 7 s);
\`\\d*\` five times over is polynomial there (n⁵), not exponential:

${table(["pattern", "backtracking (n: time)", "linear (n: time)"], hostileRows)}

Reading a pattern when an ask is created (compile; after = translate + compile; median, p95 after).
V8 compiles a \`RegExp\` lazily, at its first use, so "before" is its syntax check only; "after" is
paid once per schema read, which an ask is at creation and at each answer:

${table(["pattern of", "before", "after", "after p95"], readingRows)}

${await describeMachine()}

\`${benchCommand(NAME)}\``,
);
