import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Tests and benchmarks that build side by side give each build a folder of its own (`.next-…`).
  distDir: process.env.PARLEY_BUILD_DIR?.trim() || ".next",
  // PGlite loads its WebAssembly and data files by path: bundling it breaks the first query.
  serverExternalPackages: ["@electric-sql/pglite"],
  experimental: {
    // forbidden() renders app/forbidden.tsx with a 403 status.
    authInterrupts: true,
  },
  poweredByHeader: false,
  // Builds made by test suites that have already type-checked the project (the fault suite) skip doing it again.
  typescript: { ignoreBuildErrors: process.env.PARLEY_BUILD_SKIP_TYPECHECK === "1" },
};

export default nextConfig;
