import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { run } from "@openai/agents";
import { createParleyClient } from "@parleyhq/client";
import { memoryRunStateStore, parleyApprovals, type ResumeOutcome, runIdOfAsk } from "@parleyhq/client/openai-agents";
import { verifyWebhook } from "@parleyhq/client/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalsFor, handleTicket, supportAgent } from "../../examples/agent-frameworks/openai-agents/refund-approvals";
import { until } from "../faults/support/until";
import { type RefundDesk, RefundDeskModel, refundDesk } from "./support/openai-agents-refund-desk";
import { startTestParley, type TestParley } from "./support/parley";

const PORT = 3442;
const ROOT = path.resolve(import.meta.dirname, "..", "..");

let parley: TestParley;

beforeAll(async () => {
  parley = await startTestParley(PORT, "openai-agents");
});

afterAll(async () => {
  await parley?.close();
});

/** The approvals of one test, kept in memory, asking Sam with the test Parley's agent key. */
function approvalsInMemory(options: { within?: { seconds: number }; callbackUrl?: string } = {}) {
  return parleyApprovals({ parley: createParleyClient({ baseUrl: parley.baseUrl, apiKey: parley.apiKey, pollSeconds: 5 }), to: "sam@parley.test", store: memoryRunStateStore(), ...options });
}

/** Runs the desk on a ticket until its refunds need approval. */
async function interruptedRun(desk: RefundDesk) {
  const result = await run(desk.agent, "Please refund my orders.");
  expect(result.interruptions.map((item) => item.name)).toEqual(desk.model.calls.map(() => "refund"));
  return result;
}

/** Sam picks a decision (and maybe writes a note) on the question titled `title`. */
async function samDecides(title: string, decision: "approve" | "reject", note?: string) {
  const question = await parley.questionForSam(title);
  await parley.answerAsSam(question.id, note ? { decision, note } : { decision });
  return question;
}

/** The text of the model's last request's tool outputs: what the model was told about each call. */
const toldTheModel = (desk: RefundDesk) => RefundDeskModel.toolOutputs(desk.model.requests.at(-1)!);

describe("OpenAI Agents SDK: a tool needing approval is asked of a person in Parley", () => {
  it("becomes a question for Sam, asked once however often the run is parked, and the tool runs once after he approves", async () => {
    const desk = refundDesk([{ orderId: "A1", amount: 12 }]);
    const approvals = approvalsInMemory();
    const result = await interruptedRun(desk);
    expect(desk.refunds).toEqual([]);

    const parked = await approvals.park("ticket-approve", result);
    const again = await approvals.park("ticket-approve", result);
    expect(again.approvals.map((approval) => approval.askId)).toEqual(parked.approvals.map((approval) => approval.askId));
    const question = await parley.questionForSam("Allow Support to call refund?");
    expect((await parley.questionsForSam()).filter((each) => each.title === question.title)).toHaveLength(1);
    const spec = await parley.questionSpec(question.id);
    expect(JSON.stringify(spec)).toContain('\\"orderId\\": \\"A1\\"');

    const resuming = approvals.resume("ticket-approve", desk.agent);
    await parley.answerAsSam(question.id, { decision: "approve" });
    const outcome = await resuming;

    expect(outcome.status).toBe("finished");
    expect(desk.refunds).toEqual(["A1 12"]);
    expect(outcome.status === "finished" && outcome.result.finalOutput).toBe("Done: refunded 12 on A1");
    expect(await approvals.resume("ticket-approve", desk.agent)).toEqual({ status: "missing", runId: "ticket-approve" });
    expect(desk.refunds).toEqual(["A1 12"]);
  });

  it("a rejection means the tool never runs, and the model reads who rejected it and why", async () => {
    const desk = refundDesk([{ orderId: "B2", amount: 900 }]);
    const approvals = approvalsInMemory();
    await approvals.park("ticket-reject", await interruptedRun(desk));
    await samDecides("Allow Support to call refund?", "reject", "Too much for a damaged box; offer 50 instead.");

    const outcome = await approvals.resume("ticket-reject", desk.agent);

    expect(outcome.status).toBe("finished");
    expect(desk.refunds).toEqual([]);
    expect(toldTheModel(desk)).toEqual(["Sam Rivera rejected the call to refund; it did not run. Their reason: Too much for a damaged box; offer 50 instead."]);
    expect(outcome.status === "finished" && outcome.decisions.map((decision) => decision.approved)).toEqual([false]);
  });

  it("two resumes at once after Sam approved: one runs the run on, the other finds it gone, and the tool runs once", async () => {
    const desk = refundDesk([{ orderId: "G7", amount: 3 }]);
    const approvals = approvalsInMemory();
    await approvals.park("ticket-race", await interruptedRun(desk));
    await samDecides("Allow Support to call refund?", "approve");

    const outcomes = await Promise.all([approvals.resume("ticket-race", desk.agent), approvals.resume("ticket-race", desk.agent)]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["finished", "missing"]);
    expect(desk.refunds).toEqual(["G7 3"]);
  });

  it("the run resumes in another process, from the file it was kept in, waiting there across a restart of Parley", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "parley-openai-agents-"));
    try {
      const connection = { baseUrl: parley.baseUrl, apiKey: parley.apiKey };
      const said = await handleTicket(supportAgent(new RefundDeskModel([{ orderId: "C3", amount: 40 }])), approvalsFor(connection, directory), "ticket-elsewhere", "Refund C3.");
      expect(said).toBe("waiting for Sam");
      expect(await readdir(directory)).toEqual(["ticket-elsewhere.json"]);

      const script = path.join(ROOT, "tests/adapters/support/openai-agents-resume-elsewhere.ts");
      const child = spawn(process.execPath, ["--import", "tsx", script, parley.baseUrl, parley.apiKey, directory, "ticket-elsewhere"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      try {
        await until("the other process is waiting for Sam", async () => stdout.includes("resuming") || undefined);
        await parley.restart();
        await samDecides("Allow Support to call refund?", "approve");
        expect(await exited).toBe(0);
      } finally {
        child.kill();
      }
      const printed = JSON.parse(stdout.trim().split("\n").at(-1)!) as { pid: number; finalOutput: string };

      expect(printed.pid).not.toBe(process.pid);
      expect(printed.finalOutput).toBe("Done: refunded 40 on C3");
      expect(await readdir(directory)).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("two approvals in one turn: the run resumes once, when the second is decided, from the webhooks of both", async () => {
    const desk = refundDesk([
      { orderId: "D4", amount: 5 },
      { orderId: "E5", amount: 7 },
    ]);
    const outcomes: ResumeOutcome<typeof desk.agent>[] = [];
    let approvals: ReturnType<typeof approvalsInMemory>;
    const receiver: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", async () => {
        try {
          const event = await verifyWebhook({ secret: parley.webhookSecret, headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
          const runId = event.type === "ask.answered" || event.type === "ask.nothing" ? runIdOfAsk(event.data) : undefined;
          if (runId) outcomes.push(await approvals.resume(runId, desk.agent, { wait: false }));
          response.writeHead(204).end();
        } catch {
          response.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      approvals = approvalsInMemory({ callbackUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/parley` });
      const parked = await approvals.park("ticket-two", await interruptedRun(desk));
      expect(parked.approvals.map((approval) => JSON.parse(approval.arguments).orderId)).toEqual(["D4", "E5"]);
      const questions = await until("Sam has both questions", async () => {
        const open = (await parley.questionsForSam()).filter((question) => question.title === "Allow Support to call refund?");
        return open.length === 2 ? open : undefined;
      });
      const byOrder = async (orderId: string) => (await Promise.all(questions.map(async (question) => ((JSON.stringify(await parley.questionSpec(question.id))).includes(orderId) ? question : undefined)))).find(Boolean)!;
      const [d4, e5] = [await byOrder("D4"), await byOrder("E5")];

      await parley.answerAsSam(d4.id, { decision: "approve" });
      await until("the first webhook was handled", async () => outcomes.length === 1 || undefined);
      expect(outcomes[0]!.status).toBe("waiting");
      expect(desk.refunds).toEqual([]);

      await parley.declineAsSam(e5.id, "Ask the warehouse first.");
      await until("the second webhook was handled", async () => outcomes.length === 2 || undefined);

      expect(outcomes[1]!.status).toBe("finished");
      expect(desk.refunds).toEqual(["D4 5"]);
      expect(toldTheModel(desk)).toEqual(["refunded 5 on D4", "The call to refund was not approved and did not run: Sam Rivera declined to decide (reason: declined). Their note: Ask the warehouse first."]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("a run that needs another approval after the first is parked again, asked anew, and finishes after the second decision", async () => {
    const desk = refundDesk([{ orderId: "H8", amount: 10 }], { orderId: "H8", amount: 2 });
    const approvals = approvalsInMemory();
    await approvals.park("ticket-again", await interruptedRun(desk));
    const first = await samDecides("Allow Support to call refund?", "approve");

    const parkedAgain = await approvals.resume("ticket-again", desk.agent);
    expect(parkedAgain.status).toBe("parked");
    expect(desk.refunds).toEqual(["H8 10"]);
    const second = await parley.questionForSam("Allow Support to call refund?");
    expect(second.id).not.toBe(first.id);
    expect(parkedAgain.status === "parked" && parkedAgain.approvals.map((approval) => JSON.parse(approval.arguments))).toEqual([{ orderId: "H8", amount: 2 }]);
    await parley.answerAsSam(second.id, { decision: "approve" });

    const outcome = await approvals.resume("ticket-again", desk.agent);

    expect(outcome.status === "finished" && outcome.result.finalOutput).toBe("Done: refunded 10 on H8 | refunded 2 on H8");
    expect(desk.refunds).toEqual(["H8 10", "H8 2"]);
  });

  it("nobody answering before the deadline rejects the call, and the model is told the reason", async () => {
    const desk = refundDesk([{ orderId: "F6", amount: 30 }]);
    const approvals = approvalsInMemory({ within: { seconds: 3 } });
    await approvals.park("ticket-nobody", await interruptedRun(desk));

    const outcome = await approvals.resume("ticket-nobody", desk.agent);

    expect(outcome.status).toBe("finished");
    expect(desk.refunds).toEqual([]);
    expect(outcome.status === "finished" && outcome.decisions[0]!.outcome).toMatchObject({ ok: false, reason: "expired" });
    expect(toldTheModel(desk)).toEqual(["The call to refund was not approved and did not run: nobody answered before the deadline (reason: expired)."]);
  });
});
