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
};

export default nextConfig;
