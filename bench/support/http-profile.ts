// Reads a V8 CPU profile (`node --cpu-prof`, e.g. the server's from `BENCH_HTTP_CPU_PROFILE=dir`)
// and says where the time went: `tsx bench/support/http-profile.ts <file.cpuprofile> [--window=FROM,TO] [pattern…]`
// (the benchmark prints the measured stretch's window, in seconds since the server started).
// Self time by function and by package; with patterns (regular expressions over "function url"),
// the share of samples with a matching frame anywhere on the stack (inclusive time).
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, the app's bundle, Node itself, or V8's own states. */
function packageOf(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) {
    // Next's compiled copies of its dependencies: name the dependency.
    const compiled = /next\/dist\/compiled\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    return compiled ? `next/compiled/${compiled[1]}` : modules[1]!;
  }
  if (url.includes("/.next")) return `app bundle (${url.split("/").at(-1)})`;
  if (url.startsWith("node:")) return "node";
  return url;
}

/**
 * Aggregates a profile: total time, self time by package and function, inclusive time by pattern;
 * only the samples within `window` (seconds since the profile started), when given.
 */
export function summariseProfile(profile: CpuProfile, patterns: readonly RegExp[] = [], window?: [number, number]) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfByFunction = new Map<string, number>();
  const selfByPackage = new Map<string, number>();
  const inclusive = patterns.map(() => 0);
  let total = 0;
  let elapsedUs = 0;
  profile.samples.forEach((id, index) => {
    elapsedUs += profile.timeDeltas[index] ?? 0;
    if (window && (elapsedUs / 1e6 < window[0] || elapsedUs / 1e6 > window[1])) return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    total += ms;
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
    selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + ms);
    const pkg = packageOf(url, functionName);
    selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + ms);
    if (patterns.length === 0) return;
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      stack.push(`${frame.functionName} ${frame.url}`);
    }
    patterns.forEach((pattern, which) => {
      if (stack.some((frame) => pattern.test(frame))) inclusive[which]! += ms;
    });
  });
  const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return { totalMs: total, selfByFunction: sorted(selfByFunction), selfByPackage: sorted(selfByPackage), inclusive: patterns.map((pattern, which) => [pattern.source, inclusive[which]!] as const) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const windowArgument = args.find((arg) => arg.startsWith("--window="));
  const [file, ...patterns] = args.filter((arg) => arg !== windowArgument);
  if (!file) throw new Error("usage: tsx bench/support/http-profile.ts <file.cpuprofile> [--window=FROM,TO seconds] [pattern…]");
  const window = windowArgument ? (windowArgument.slice("--window=".length).split(",").map(Number) as [number, number]) : undefined;
  const summary = summariseProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, patterns.map((pattern) => new RegExp(pattern)), window);
  const percent = (ms: number) => `${((100 * ms) / summary.totalMs).toFixed(1)}%`;
  console.log(`sampled ${(summary.totalMs / 1000).toFixed(2)} s`);
  console.log("\nself time by package:");
  for (const [name, ms] of summary.selfByPackage.slice(0, 25)) console.log(`  ${percent(ms).padStart(6)}  ${name}`);
  console.log("\nself time by function:");
  for (const [name, ms] of summary.selfByFunction.slice(0, 40)) console.log(`  ${percent(ms).padStart(6)}  ${name}`);
  if (summary.inclusive.length > 0) console.log("\ninclusive (a matching frame on the stack):");
  for (const [pattern, ms] of summary.inclusive) console.log(`  ${percent(ms).padStart(6)}  ${pattern}`);
}
