// A process of its own that resumes a parked run, as a worker would hours later: it knows only the
// ticket, Parley's address and key, and where the runs are kept. It says "resuming" as it starts
// waiting, then prints what finishTicket returned.
// Run: node --import tsx tests/adapters/support/openai-agents-resume-elsewhere.ts <baseUrl> <apiKey> <directory> <ticket>
import { setTracingDisabled } from "@openai/agents";
import { approvalsFor, finishTicket, supportAgent } from "../../../examples/agent-frameworks/openai-agents/refund-approvals";
import { RefundDeskModel } from "./openai-agents-refund-desk";

setTracingDisabled(true);
const [baseUrl, apiKey, directory, ticket] = process.argv.slice(2);
if (!baseUrl || !apiKey || !directory || !ticket) throw new Error("usage: openai-agents-resume-elsewhere.ts <baseUrl> <apiKey> <directory> <ticket>");
process.stdout.write("resuming\n");
const finalOutput = await finishTicket(supportAgent(new RefundDeskModel([])), approvalsFor({ baseUrl, apiKey }, directory), ticket);
process.stdout.write(`${JSON.stringify({ pid: process.pid, finalOutput })}\n`);
