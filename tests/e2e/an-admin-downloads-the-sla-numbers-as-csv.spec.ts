import { readFile } from "node:fs/promises";
import { expect, people, signedInPage, test } from "./fixtures";

test("an admin downloads the SLA numbers of the period on screen as CSV, with the rows the page shows", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/admin/sla?period=all");
  const byWorkflow = admin.getByRole("table", { name: "By workflow" });
  const workflowsOnPage = await byWorkflow.locator("tbody th[scope=row]").allTextContents();

  const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("link", { name: "Download these numbers as CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^parley-sla-all-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await download.path())!, "utf8")).trimEnd().split("\r\n");
  expect(lines[0]).toBe("breakdown,name,id,period,from,until,finished,answered,within_sla,breaches,within_sla_percent,p50_seconds,p90_seconds,p95_seconds");
  expect(lines[1]).toMatch(/^overall,All waits,,All time,,\d{4}-/);
  const workflowsInFile = lines.filter((line) => line.startsWith("workflow,")).map((line) => line.split(",")[1]);
  expect(workflowsInFile).toEqual(workflowsOnPage);
  await admin.context().close();
});
