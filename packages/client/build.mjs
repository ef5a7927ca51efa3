// Builds the package: ESM (nodenext, as Node loads it) into dist/esm, then CommonJS into dist/cjs,
// each with its type declarations. Uses the TypeScript of the repository (or of your install).
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const here = import.meta.dirname;
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const build = (...flags) => execFileSync(process.execPath, [tsc, "-p", path.join(here, "tsconfig.json"), ...flags], { stdio: "inherit" });

rmSync(path.join(here, "dist"), { recursive: true, force: true });
build();
build("--module", "commonjs", "--moduleResolution", "node10", "--outDir", path.join(here, "dist", "cjs"));
// The .js files under dist/cjs are CommonJS although the package says "type": "module".
mkdirSync(path.join(here, "dist", "cjs"), { recursive: true });
writeFileSync(path.join(here, "dist", "cjs", "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
