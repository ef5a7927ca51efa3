import { randomUUID } from "node:crypto";
import { Agent, type Model, type ModelRequest, type ModelResponse, setTracingDisabled, type StreamEvent, tool, Usage } from "@openai/agents";
import { assistantMessage, functionCall } from "@openai/agents/testing";
import { z } from "zod";

// No traces are sent anywhere from a test (the SDK would export them to OpenAI).
setTracingDisabled(true);

/** A refund the model asks for. */
export interface RefundCall {
  orderId: string;
  amount: number;
}

/** A tool call's output as the model reads it back (text, or the SDK's `{ type: "text", text }`). */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (output && typeof output === "object" && "text" in output && typeof output.text === "string") return output.text;
  return JSON.stringify(output);
}

/**
 * A model for tests, reachable without a network and with no memory of its own, so that a run resumed
 * in another process meets the same model: while the conversation holds no tool output it calls
 * `refund` once for each of `calls` (in one turn, with fresh call ids), then for `followUp` if given
 * (a second turn); once the outputs are in, it ends with one message quoting each, in order ("Done: refunded 12 on A1 | …").
 */
export class RefundDeskModel implements Model {
  /** Every request this model was sent, in order. */
  readonly requests: ModelRequest[] = [];

  /**
   * @param calls the refunds it asks for, in its first turn.
   * @param followUp a refund it asks for in a second turn, once the first turn's outputs are in.
   */
  constructor(
    readonly calls: readonly RefundCall[],
    readonly followUp?: RefundCall,
  ) {}

  /** The tool outputs in a request's input, as text. */
  static toolOutputs(request: ModelRequest): string[] {
    const input = Array.isArray(request.input) ? request.input : [];
    return input.flatMap((item) => (item.type === "function_call_result" ? [outputText(item.output)] : []));
  }

  /** What it says to a request: the refund calls, or its last message. */
  private reply(request: ModelRequest): (ReturnType<typeof functionCall> | ReturnType<typeof assistantMessage>)[] {
    this.requests.push(request);
    const outputs = RefundDeskModel.toolOutputs(request);
    const call = (refund: RefundCall) => functionCall("refund", { ...refund }, { callId: `call_${randomUUID()}` });
    if (outputs.length === 0) return this.calls.map(call);
    if (this.followUp && outputs.length === this.calls.length) return [call(this.followUp)];
    return [assistantMessage(`Done: ${outputs.join(" | ")}`)];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    return { usage: new Usage(), output: this.reply(request), responseId: `response_${randomUUID()}` };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const output = this.reply(request);
    yield { type: "response_done", response: { id: `response_${randomUUID()}`, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output } };
  }
}

/** A support agent whose `refund` tool needs a person's approval, and the refunds it really made. */
export interface RefundDesk {
  agent: Agent;
  model: RefundDeskModel;
  /** One line per time the tool ran ("A1 12"). */
  refunds: string[];
}

/** The refund desk, its model scripted to ask for `calls`. */
export function refundDesk(calls: readonly RefundCall[] = [], followUp?: RefundCall): RefundDesk {
  const refunds: string[] = [];
  const model = new RefundDeskModel(calls, followUp);
  const refund = tool({
    name: "refund",
    description: "Refund an order.",
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: async ({ orderId, amount }) => {
      refunds.push(`${orderId} ${amount}`);
      return `refunded ${amount} on ${orderId}`;
    },
  });
  const agent = new Agent({ name: "Support", instructions: "Refund what the customer is owed.", model, tools: [refund] });
  return { agent, model, refunds };
}
