import { existsSync } from "node:fs";
import { chromium, defineConfig } from "@playwright/test";

/**
 * The Chromium the end-to-end tests drive: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else
 * Playwright's own browser if one was installed. With none, the run fails and says how to get one.
 */
function findChromium(): string {
  const configured = process.env.CHROMIUM_PATH?.trim();
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH is set to ${configured}, but there is no file there.`);
    return configured;
  }
  if (existsSync("/usr/bin/chromium")) return "/usr/bin/chromium";
  const bundled = chromium.executablePath();
  if (bundled && existsSync(bundled)) return bundled;
  throw new Error(
    "No Chromium found for the end-to-end tests. Install Debian's (`apt-get install chromium`), " +
      "or set CHROMIUM_PATH to a Chromium or Chrome binary, or run `npx playwright install chromium` where downloads are allowed.",
  );
}

const port = process.env.PARLEY_E2E_PORT ?? "3100";
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL,
    // Pages write times in the reader's locale and time zone: the browser's are fixed, and a test may choose others.
    locale: "en-GB",
    timezoneId: "UTC",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: findChromium(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `${baseURL}/login`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});
