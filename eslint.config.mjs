import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import parley from "./lint/no-type-cycle.mjs";

const root = import.meta.dirname;

// The layers (docs/architecture.md): app → lib → db. Each zone forbids its `target` (a folder, file or
// glob) to import from `from`, type-only imports included. Paths are relative to the repository root;
// the TypeScript resolver turns `@/…` into files.

/** lib ← the registry file: lifted for lib/registry/configured.ts alone (below). */
const registryZone = {
  target: "lib",
  from: ["parley.config.ts"],
  message: "Only lib/registry/configured.ts reads @/parley.config: call getRegistry().",
};

/** Apps built on Parley: the examples, and the SDK's own test app (which proves an app needs nothing else). */
const appFolders = ["examples", "tests/integration/sdk"];

const SDK_ONLY =
  "An app imports Parley only through its SDK: `parley/workflows`, and `parley/testing` in its tests (docs/sdk.md); its own files by relative path.";

const layerZones = [
  registryZone,
  {
    target: "db",
    from: ["lib", "app", "components", "examples", "parley.config.ts"],
    message: "db/ stores and imports nothing above it; move what it needs down into db/ (lib/ may re-export it).",
  },
  {
    target: "lib",
    from: ["app", "components", "examples"],
    message: "lib/ decides and imports only db/ (and itself); it reaches workflows through the registry.",
  },
  {
    target: "components",
    from: ["app"],
    message: "Components are used by app/, not the other way round.",
  },
  {
    target: "components",
    from: ["db"],
    except: ["./schema"],
    message: "Components get their data from props; at most types from db/schema (import type).",
  },
  {
    target: ["app/**/page.tsx", "app/**/layout.tsx"],
    from: ["db/queries", "db/client.ts"],
    message: "Pages do not query the database: call a lib/ function.",
  },
  {
    target: ["app", "components"],
    from: ["examples", "parley.config.ts"],
    message: "Workflows are reached through the registry (getRegistry() in lib/registry/configured.ts), never by importing an example.",
  },
  // An app (an example, the SDK's own test app) builds on Parley's SDK alone: what it needs and is missing there belongs in lib/sdk.
  { target: appFolders, from: ["lib"], except: ["./sdk"], message: SDK_ONLY },
  { target: appFolders, from: ["db", "app", "components", "parley.config.ts"], message: SDK_ONLY },
  { target: appFolders, from: ["tests"], except: ["./integration/sdk"], message: SDK_ONLY },
  {
    target: "packages/client",
    from: ["app", "lib", "db", "components", "examples", "parley.config.ts"],
    message: "packages/client is the standalone HTTP client (`@parleyhq/client`): it reaches Parley over HTTP only — fetch, zod and standard APIs, nothing of the app.",
  },
];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: ["node_modules/**", "packages/*/dist/**", ".next/**", ".next-*/**", ".data/**", ".test-data/**", "db/migrations/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // The pure core: no Next.js, no React, no environment — the CLI and tests use it as it is.
    files: ["lib/runtime/**", "lib/questions/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["next", "next/*", "react", "react-dom", "@/app/*", "@/components/*"], message: "The pure core imports no Next.js, React, app/ or components/." },
            { group: ["@/lib/server/*", "**/server/*"], message: "The core speaks no HTTP: lib/server (the HTTP edge) turns its error codes into statuses (httpStatusOf)." },
          ],
        },
      ],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Pass configuration in; the core reads no environment." }],
    },
  },
  {
    // The HTTP client runs in other people's processes: no framework, no database driver, no environment.
    files: ["packages/client/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["next", "next/*", "react", "react-dom", "react/*"], message: "packages/client runs outside Next.js: fetch and standard APIs only." },
            { group: ["drizzle-orm", "drizzle-orm/*", "postgres", "@electric-sql/*", "pg-boss"], message: "packages/client reaches Parley over HTTP, never its database." },
          ],
        },
      ],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Pass configuration in: createParleyClient({ baseUrl, apiKey })." }],
    },
  },
  {
    // The layering, enforced (docs/architecture.md, "Layers").
    files: ["**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts", ".cts"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: `${root}/tsconfig.json` })],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { basePath: root, zones: layerZones }],
    },
  },
  {
    // The one place that reads the registry: the same zones less registryZone.
    files: ["lib/registry/configured.ts"],
    rules: {
      "import-x/no-restricted-paths": ["error", { basePath: root, zones: layerZones.filter((zone) => zone !== registryZone) }],
    },
  },
  {
    // An app names the SDK's entries, never the platform's files (`@/…`): the entries are what Parley keeps stable for it.
    files: appFolders.map((folder) => `${folder}/**`),
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/*"], message: SDK_ONLY }] }],
    },
  },
  {
    // Components may read db/schema's types, never its values.
    files: ["components/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: "(^@/|/)db/schema(/|$)", allowTypeImports: true, message: "Components may import only types from db/schema (import type)." }] },
      ],
    },
  },
  {
    // No import cycles among the source folders (import-x/no-cycle does not count type-only imports:
    // they leave no runtime edge). Deep enough as it is: the whole lint stays around 30 s.
    files: ["app/**", "components/**", "lib/**", "db/**", "examples/**", "packages/client/src/**"],
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    // In lib/ and db/ a cycle that type-only imports close is refused too: modules that need each
    // other's types share them from a types module (lib/runtime/types.ts) instead (lint/no-type-cycle.mjs).
    files: ["lib/**", "db/**"],
    plugins: { parley },
    rules: {
      "parley/no-type-cycle": ["error", { tsconfig: `${root}/tsconfig.json` }],
    },
  },
];

export default config;
