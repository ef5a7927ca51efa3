// Reads a V8 CPU profile (`node --cpu-prof`, e.g. the server's from `BENCH_HTTP_CPU_PROFILE=dir`)
// and says where the time went: `tsx bench/support/http-profile.ts <file.cpuprofile> [--window=FROM,TO] [pattern…]`
// (the benchmark prints the measured stretch's window, in seconds since the server started).
// Self time by function and by package; with patterns (regular expressions over "function url"),
// the share of samples with a matching frame anywhere on the stack (inclusive time).
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

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

const sourceMaps = new Map<string, SourceMap | null>();

/** The source a bundled frame came from, through the build's source map (Turbopack writes one per chunk). */
function originalSource(url: string, line: number, column: number): string | undefined {
  if (!url.startsWith("file://") || !url.includes("/.next")) return undefined;
  const file = fileURLToPath(url);
  if (!sourceMaps.has(file)) {
    const mapFile = `${file}.map`;
    sourceMaps.set(file, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")) as ConstructorParameters<typeof SourceMap>[0]) : null);
  }
  const entry = sourceMaps.get(file)?.findEntry(line, column) as { originalSource?: string } | undefined;
  return entry?.originalSource;
}

/** Where a frame's code lives: a package, the app's own code, Node itself, or V8's own states. */
function packageOf(frame: ProfileNode["callFrame"]): string {
  const { url, functionName: name } = frame;
  if (!url) return name.startsWith("(") ? name : "(native)";
  const where = originalSource(url, frame.lineNumber, frame.columnNumber) ?? url;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where);
  if (modules) {
    // Next's compiled copies of its dependencies: name the dependency.
    const compiled = /next\/dist\/compiled\/((?:@[^/]+\/)?[^/]+)/.exec(where);
    return compiled ? `next/compiled/${compiled[1]}` : modules[1]!;
  }
  if (where.startsWith("node:")) return "node";
  const project = /(?:\[project\]\/|\/)((?:app|lib|db|components)\/[^?]*)/.exec(where);
  if (project) return `parley: ${project[1]!.split("/").slice(0, 2).join("/")}`;
  if (where.includes("/.next")) return `bundle (${where.split("/").at(-1)})`;
  return where;
}

/** A package's share of the work, rolled up: the framework, the database client, sign-in, the model SDK, our code. */
export function bucketOf(pkg: string): string {
  if (/^next|^react|^@next|^scheduler/.test(pkg)) return "Next.js and React (routing, actions, rendering)";
  if (/^postgres$|^drizzle-orm/.test(pkg)) return "database client (postgres.js, drizzle)";
  if (/^next-auth|^@auth|^jose|^@panva|^bcrypt/.test(pkg)) return "sign-in and sessions (next-auth, jose)";
  if (/^ai$|^@ai-sdk|^zod|^@standard-schema/.test(pkg)) return "AI SDK and zod";
  if (pkg.startsWith("parley: ")) return "Parley's own code (app, lib, db)";
  if (pkg === "node") return "Node.js internals (streams, sockets, async hooks)";
  if (pkg === "(garbage collector)") return "garbage collection";
  if (pkg === "(idle)") return "idle";
  return "native code and the rest (syscalls, V8)";
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
  const selfByBucket = new Map<string, number>();
  const packageByNode = new Map<number, string>();
  const inclusive = patterns.map(() => 0);
  let total = 0;
  let elapsedUs = 0;
  profile.samples.forEach((id, index) => {
    elapsedUs += profile.timeDeltas[index] ?? 0;
    if (window && (elapsedUs / 1e6 < window[0] || elapsedUs / 1e6 > window[1])) return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    total += ms;
    const node = byId.get(id)!;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const where = originalSource(url, lineNumber, columnNumber) ?? url;
    const key = `${functionName || "(anonymous)"} ${where.split("/").slice(-3).join("/")}${where === url ? `:${lineNumber + 1}` : ""}`;
    selfByFunction.set(key, (selfByFunction.get(key) ?? 0) + ms);
    if (!packageByNode.has(id)) packageByNode.set(id, packageOf(node.callFrame));
    const pkg = packageByNode.get(id)!;
    selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + ms);
    const bucket = bucketOf(pkg);
    selfByBucket.set(bucket, (selfByBucket.get(bucket) ?? 0) + ms);
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
  return { totalMs: total, selfByFunction: sorted(selfByFunction), selfByPackage: sorted(selfByPackage), selfByBucket: sorted(selfByBucket), inclusive: patterns.map((pattern, which) => [pattern.source, inclusive[which]!] as const) };
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
  console.log("\nself time by kind of work:");
  for (const [name, ms] of summary.selfByBucket) console.log(`  ${percent(ms).padStart(6)}  ${name}`);
  console.log("\nself time by package:");
  for (const [name, ms] of summary.selfByPackage.slice(0, 25)) console.log(`  ${percent(ms).padStart(6)}  ${name}`);
  console.log("\nself time by function:");
  for (const [name, ms] of summary.selfByFunction.slice(0, 40)) console.log(`  ${percent(ms).padStart(6)}  ${name}`);
  if (summary.inclusive.length > 0) console.log("\ninclusive (a matching frame on the stack):");
  for (const [pattern, ms] of summary.inclusive) console.log(`  ${percent(ms).padStart(6)}  ${pattern}`);
}
