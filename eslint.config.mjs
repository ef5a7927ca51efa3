import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: ["node_modules/**", ".next/**", ".next-*/**", ".data/**", ".test-data/**", "db/migrations/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
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
      "no-restricted-imports": ["error", { patterns: ["next", "next/*", "react", "react-dom", "@/app/*", "@/components/*"] }],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Pass configuration in; the core reads no environment." }],
    },
  },
];

export default config;
