import path from "node:path";

const root = import.meta.dirname;

/**
 * The import names tests resolve as the app's tsconfig does: `@/…` is the repository, and
 * `@parleyhq/client` (with its subpaths) is the client package's TypeScript source, so tests run
 * against the source without building the package (tests/adapters/the-packed-client-… tests the build).
 */
export const resolveAliases = [
  { find: /^@parleyhq\/client$/, replacement: path.join(root, "packages/client/src/index.ts") },
  { find: /^@parleyhq\/client\/([a-z-]+)$/, replacement: path.join(root, "packages/client/src/$1/index.ts") },
  { find: /^parley\/workflows$/, replacement: path.join(root, "lib/sdk/workflows.ts") },
  { find: /^parley\/testing$/, replacement: path.join(root, "lib/sdk/testing.ts") },
  { find: "@", replacement: root },
];
