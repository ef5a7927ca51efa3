import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Tests and benchmarks that build side by side give each build a folder of its own (`.next-…`).
  distDir: process.env.PARLEY_BUILD_DIR?.trim() || ".next",
  // The container image's build (Dockerfile) asks for a standalone server: `.next/standalone` holds
  // server.js and only the files it needs. `npm start` serves the usual build with `next start`.
  ...(process.env.PARLEY_STANDALONE === "1" ? { output: "standalone" as const } : {}),
  // PGlite loads its WebAssembly and data files by path: bundling it breaks the first query.
  // postgres.js is loaded from node_modules as installed, with the fixes in patches/postgres+3.4.9.patch.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "@opentelemetry/sdk-node", "@opentelemetry/api"],
  experimental: {
    // forbidden() renders app/forbidden.tsx with a 403 status.
    authInterrupts: true,
  },
  poweredByHeader: false,
  // proxy.ts gives every other response these and more; the build's own files pass it by.
  async headers() {
    return [
      {
        source: "/:path(_next/.*|favicon.ico)",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
    ];
  },
  // Builds made by test suites that have already type-checked the project (the fault suite) skip doing it again.
  typescript: { ignoreBuildErrors: process.env.PARLEY_BUILD_SKIP_TYPECHECK === "1" },
};

export default nextConfig;
