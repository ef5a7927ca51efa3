import { spawn } from "node:child_process";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createParleyClient } from "@parleyhq/client";
import { findPython, PYTHON_PACKAGE, runProcess } from "@/tests/support/python";
import { until } from "../faults/support/until";
import { startTestParley, type TestParley } from "./support/parley";

// The Python package (packages/python) against a real Parley: examples/python/deploy_approval.py asks
// Sam from a Python process and prints what his answer made it do; examples/python/receive_webhooks.py
// verifies Parley's own signed callback with verify_webhook.

const python = findPython();
const EXAMPLES = path.resolve(import.meta.dirname, "..", "..", "examples", "python");
const pythonPath = { PYTHONPATH: path.join(PYTHON_PACKAGE, "src") };

let parley: TestParley;
beforeAll(async () => {
  if (!python.skip) parley = await startTestParley(3443, "python-package");
});
afterAll(async () => {
  await parley?.close();
});

/** Runs the deploy example for `release` against the test Parley: its exit code and what it printed. */
function deployExample(release: string) {
  return runProcess("python3", [path.join(EXAMPLES, "deploy_approval.py"), release], {
    env: { ...pythonPath, PARLEY_URL: parley.baseUrl, PARLEY_API_KEY: parley.apiKey },
    timeoutMs: 90_000,
  });
}

/** Sam answers the deploy question by its fields' paths, as the person API takes the text he types. */
async function samAnswers(questionId: string, decision: string, hours: string) {
  const paths = (await parley.questionSpec(questionId)).spec.fields.map((field) => field.path);
  expect(paths).toEqual(["decision", "window_hours"]);
  await parley.answerAsSam(questionId, { decision, window_hours: hours });
}

describe.skipIf(python.skip !== undefined)(`the Python package against a real Parley${python.skip ? ` (skipped: ${python.skip})` : ""}`, () => {
  it("asks Sam from Python and prints what his typed answer decided", async () => {
    const run = deployExample("4.2.0");
    const question = await parley.questionForSam("Deploy 4.2.0 now?");
    await samAnswers(question.id, "approve", "4");
    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    // timedelta(hours=…) took the answer's window_hours: an int, not the "4" Sam typed.
    expect(done.stdout).toBe("deploying 4.2.0 in a window of 4:00:00\n");
  });

  it("gets Sam's answer though Parley restarted while the Python side was waiting for it", async () => {
    const run = deployExample("4.3.0");
    const question = await parley.questionForSam("Deploy 4.3.0 now?");
    await parley.restart();
    await samAnswers(question.id, "approve", "2");
    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toBe("deploying 4.3.0 in a window of 2:00:00\n");
    const asks = await createParleyClient({ baseUrl: parley.baseUrl, apiKey: parley.apiKey }).listAsks({ limit: 100 });
    expect(asks.data.filter((ask) => ask.title === "Deploy 4.3.0 now?"), "asked once").toHaveLength(1);
  });

  it("hears why nobody answered: Sam's decline reaches Python as nothing, with his note", async () => {
    const run = deployExample("4.4.0");
    const question = await parley.questionForSam("Deploy 4.4.0 now?");
    await parley.declineAsSam(question.id, "Freeze until Monday.");
    const done = await run;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toBe("not deploying 4.4.0: declined (Freeze until Monday.)\n");
  });

  it("verifies Parley's signed callback with verify_webhook and refuses a forged one", async () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? "", PYTHONUNBUFFERED: "1", PYTHONDONTWRITEBYTECODE: "1", ...pythonPath, PARLEY_WEBHOOK_SECRET: parley.webhookSecret };
    const receiver = spawn("python3", [path.join(EXAMPLES, "receive_webhooks.py")], { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    receiver.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    receiver.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const url = await until("the receiver listens", () => /listening on (\S+)/.exec(stdout)?.[1], { timeoutMs: 15_000 });
      const client = createParleyClient({ baseUrl: parley.baseUrl, apiKey: parley.apiKey });
      await client.createAsk({ to: "sam@parley.test", title: "Roll back 4.1?", callbackUrl: url, metadata: { job: "rollback-4.1" } });
      const question = await parley.questionForSam("Roll back 4.1?");
      await parley.answerAsSam(question.id, { [(await parley.questionSpec(question.id)).spec.fields[0]!.path]: "Yes, now." });
      const line = await until("the receiver printed the verified event", () => stdout.split("\n").find((each) => each.startsWith("{")), { timeoutMs: 60_000 });
      expect(JSON.parse(line)).toEqual({ type: "ask.answered", metadata: { job: "rollback-4.1" }, answer: "Yes, now.", reason: null });

      // The same event signed with another secret, as a forger would: refused with a 400, and not acted on.
      const body = JSON.stringify({ type: "ask.answered", timestamp: new Date().toISOString(), data: { metadata: { job: "rollback-4.1" }, answer: "No." } });
      const forger = new Webhook(`whsec_${Buffer.from("not the agent key's secret, 32 by").toString("base64")}`);
      const headers = { "webhook-id": "msg_forged", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "content-type": "application/json" };
      const forged = await fetch(url, { method: "POST", body, headers: { ...headers, "webhook-signature": forger.sign("msg_forged", new Date(), body) } });
      expect(forged.status).toBe(400);
      await until("the receiver said why it refused", () => stdout.includes("refused: mismatch"), { timeoutMs: 5_000 });
      expect(stdout.split("\n").filter((each) => each.startsWith("{")), stderr).toHaveLength(1);
    } finally {
      receiver.kill("SIGTERM");
    }
  });
});
