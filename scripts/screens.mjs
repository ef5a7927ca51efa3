#!/usr/bin/env node
// Takes a screenshot of every page, for each role, at 1280 px and on a 390 px phone, in the light and
// the dark theme, from a running Parley with its demo people (`npm start`, or scripts/e2e-server.mjs):
//
//   node scripts/screens.mjs [--base http://127.0.0.1:3000] [--out docs/screens] [--only inbox,run]
//
// It also reports any console error a page logged, and any page that scrolls sideways.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";

const { values } = parseArgs({
  options: {
    base: { type: "string", default: "http://127.0.0.1:3000" },
    out: { type: "string", default: "docs/screens" },
    only: { type: "string" },
  },
});
const base = values.base.replace(/\/$/, "");
const only = values.only ? new Set(values.only.split(",")) : null;

const PEOPLE = {
  assignee: { email: "sam@parley.test", password: "sam-assignee-demo" },
  operator: { email: "omar@parley.test", password: "omar-operator-demo" },
  admin: { email: "ada@parley.test", password: "ada-admin-demo" },
};
const SCREENS = [
  { name: "desktop", viewport: { width: 1280, height: 860 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
];
const THEMES = ["light", "dark"];

/** Each shot: its file name, who looks, and how to reach the page (a path, or steps from one). */
const SHOTS = [
  { name: "sign-in", as: null, path: "/login", title: "Sign in" },
  { name: "inbox", as: "assignee", path: "/inbox", title: "Inbox (assignee)" },
  { name: "inbox-team", as: "assignee", path: "/inbox?view=team", title: "Inbox: team questions" },
  { name: "inbox-answered", as: "assignee", path: "/inbox?view=answered", title: "Inbox: answered by me" },
  { name: "question", as: "assignee", path: "/inbox", open: "[data-inbox-link]", title: "A question" },
  { name: "notifications", as: "assignee", path: "/notifications", title: "Notifications" },
  { name: "profile", as: "assignee", path: "/profile", title: "Profile" },
  { name: "runs", as: "operator", path: "/runs", title: "Runs (operator)" },
  { name: "start-run", as: "operator", path: "/runs?start=ReviewClaim", title: "Starting a run" },
  { name: "run", as: "operator", path: "/runs", open: "table a[href^='/tasks/']", title: "A run" },
  { name: "sla", as: "admin", path: "/admin/sla", title: "SLA clocks (admin)" },
  { name: "people", as: "admin", path: "/admin/people", title: "People" },
  { name: "person", as: "admin", path: "/admin/people", open: "a[href^='/admin/people/']:has-text('Sam Rivera')", title: "A person" },
  {
    name: "person-reassign",
    as: "admin",
    path: "/admin/people",
    open: "a[href^='/admin/people/']:has-text('Sam Rivera')",
    title: "Reassigning a person's waits to someone found by name",
    act: async (page) => {
      await page.getByRole("combobox", { name: "or reassign them to" }).fill("pri");
      const found = page.getByRole("listbox", { name: "or reassign them to" });
      await found.getByRole("option").first().waitFor();
      await found.scrollIntoViewIfNeeded();
    },
  },
  { name: "groups", as: "admin", path: "/admin/groups", title: "Groups" },
  { name: "api-keys", as: "admin", path: "/admin/api-keys", title: "API keys" },
  { name: "audit-log", as: "admin", path: "/admin/audit", title: "Audit log" },
];

async function signIn(context, who) {
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: /sign in/i }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await page.close();
}

await mkdir(values.out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.PARLEY_CHROMIUM ?? "/usr/bin/chromium" });
const problems = [];
for (const theme of THEMES) {
  for (const screen of SCREENS) {
    const contexts = {};
    for (const shot of SHOTS) {
      if (only && !only.has(shot.name)) continue;
      const key = shot.as ?? "visitor";
      if (!contexts[key]) {
        contexts[key] = await browser.newContext({ viewport: screen.viewport, colorScheme: theme, locale: "en-GB", timezoneId: "Europe/London" });
        if (shot.as) await signIn(contexts[key], PEOPLE[shot.as]);
      }
      const page = await contexts[key].newPage();
      const label = `${shot.name} (${screen.name}, ${theme})`;
      page.on("console", (message) => message.type() === "error" && problems.push(`${label}: console: ${message.text()}`));
      await page.goto(`${base}${shot.path}`);
      if (shot.open) {
        const link = page.locator(shot.open).first();
        if ((await link.count()) === 0) {
          problems.push(`${label}: nothing to open at ${shot.path}`);
          await page.close();
          continue;
        }
        await Promise.all([page.waitForURL((url) => url.pathname + url.search !== shot.path), link.click()]);
      }
      await page.waitForLoadState("networkidle");
      if (shot.act) await shot.act(page);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (sideways > 0) problems.push(`${label}: scrolls ${sideways} px sideways`);
      await page.screenshot({ path: join(values.out, `${shot.name}-${screen.name}-${theme}.png`), fullPage: screen.name === "desktop" });
      await page.close();
    }
    for (const context of Object.values(contexts)) await context.close();
  }
}
await browser.close();
if (!only) {
  // An index to look through: each page at 1280 px and on a phone, light, with the dark ones linked.
  const rows = SHOTS.map(
    (shot) =>
      `## ${shot.title}\n\n<img src="${shot.name}-desktop-light.png" width="640" alt="${shot.title}, 1280 px, light"> ` +
      `<img src="${shot.name}-phone-light.png" width="195" alt="${shot.title}, 390 px phone, light">\n\n` +
      `Dark: [1280 px](${shot.name}-desktop-dark.png) · [phone](${shot.name}-phone-dark.png)\n`,
  );
  await writeFile(
    join(values.out, "README.md"),
    `# Parley's screens\n\nEvery page, for the role that uses it, at 1280 px and on a 390 px phone, in the light and the dark theme, ` +
      `from the demo (\`node scripts/screens.mjs\` against \`npm start\` makes them again).\n\n${rows.join("\n")}`,
  );
}
console.log(problems.length ? problems.join("\n") : "No console errors; nothing scrolls sideways.");
process.exitCode = problems.length ? 1 : 0;
