import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findPython, runPythonExample } from "@/tests/support/python";
import { expect, people, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { uniqueTitle } from "./pages/runs-page";
import { clientFor, makeAgentKey, openAsAssignee, untilAsked } from "./support/agent-keys";

const python = findPython();

const DEPLOY_SCHEMA = {
  type: "object",
  properties: {
    decision: {
      description: "Deploy the release now?",
      oneOf: [
        { const: "approve", title: "Approve" },
        { const: "reject", title: "Reject" },
      ],
    },
    window_hours: { type: "integer", description: "How many hours may the rollout take?", minimum: 1, maximum: 12 },
  },
  required: ["decision", "window_hours"],
};

test("the standard-library Python example asks, the person answers in the browser, and it prints the answer as JSON and exits 0", async ({ browser, baseURL }) => {
  test.skip(python.skip !== undefined, python.skip);
  test.setTimeout(120_000);
  const key = await makeAgentKey(browser, "Python bot");
  const folder = mkdtempSync(path.join(tmpdir(), "parley-python-"));
  try {
    const schemaFile = path.join(folder, "deploy.json");
    writeFileSync(schemaFile, JSON.stringify(DEPLOY_SCHEMA));
    const title = uniqueTitle("Deploy search 7.1?");
    const running = runPythonExample(["--to", people.assignee.email, "--title", title, "--schema", schemaFile, "--key", `python-${randomUUID()}`, "--poll", "10"], {
      url: baseURL!,
      apiKey: key.secret,
    });

    await untilAsked(clientFor(baseURL!, key), title);
    const page = await openAsAssignee(browser, title);
    await page.getByRole("group", { name: "Deploy the release now?" }).getByRole("radio", { name: "Approve" }).check();
    await page.getByLabel("How many hours may the rollout take?").fill("2");
    await new QuestionPage(page).send();
    await expect(page.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();
    await page.context().close();

    const run = await running;
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ decision: "approve", window_hours: 2 });
    expect(run.stderr).toContain(`Answered by ${people.assignee.name}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
