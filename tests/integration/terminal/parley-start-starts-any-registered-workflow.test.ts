import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWithPipes } from "./terminal-run";

/*
 * `parley start` starts any workflow the registry has a start form for, as the Runs page does: it
 * lists them, judges the start form by the workflow's own schema (refusals on their fields, nothing
 * started), starts the run and then asks the questions it puts to the person here.
 */
describe("parley start", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), "parley-start-"));
    const deploy = { service: "billing-api", version: "4.2.0", environment: "production", change: "Faster invoices.", rollbackTested: "y", approverId: "1" };
    writeFileSync(path.join(folder, "deploy.json"), JSON.stringify(deploy));
    writeFileSync(path.join(folder, "bad-deploy.json"), JSON.stringify({ ...deploy, service: "Billing API", version: "four" }));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const parley = (args: string[]) => runWithPipes(args, { cwd: folder });

  it("lists the registered workflows a form starts, by name, and refuses a name it does not have", async () => {
    const listed = await parley(["start"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ReviewClaim\s+Expense review — /m);
    expect(listed.stdout).toMatch(/^DeployApproval\s+Deployment approval — /m);
    const unknown = await parley(["start", "Payroll"]);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain("There is no workflow “Payroll” started from a form here: the registered ones are ReviewClaim, DeployApproval.");
  }, 60_000);

  it("refuses a start form in the workflow's own words and starts nothing", async () => {
    const refused = await parley(["start", "DeployApproval", "--input", "bad-deploy.json"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("service: Name the service as it is deployed: lower-case letters, digits and dashes, like billing-api.");
    expect(refused.stderr).toContain("version: Write the version as major.minor.patch, like 2.14.0.");
    expect(refused.stderr).not.toContain("Started");
  }, 60_000);

  it("starts the run from its start form and, with nobody at the terminal, its question gets nothing at once", async () => {
    const started = await parley(["start", "DeployApproval", "--input", "deploy.json"]);
    expect(started.stderr).toContain("Started Deployment approval");
    expect(started.stderr).toContain("Nobody is at this terminal (stdin is not a terminal): nothing was asked, and whoever asked got no answer (reason: non-interactive).");
    expect(started.code).toBe(3);
  }, 60_000);
});
