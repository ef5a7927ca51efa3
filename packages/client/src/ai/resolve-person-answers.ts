import type { ModelMessage, ToolResultPart } from "ai";

import type { ParleyClient } from "../parley-client.js";
import type { Ask } from "../types.js";
import { isPersonAskResult, type PersonAskResult, personAskResult, type PersonTicket } from "./ask-person-tool.js";

/** Options of {@link resolvePersonAnswers}. */
export interface ResolvePersonAnswersOptions {
  /** The Parley client the asks were made with (the same agent key). */
  client: ParleyClient;
  /**
   * Seconds to wait for answers not in yet: 0 (the default) only looks — for an app woken by
   * Parley's webhook; more long-polls until every ticket is settled or the time is up.
   */
  wait?: number;
  /** Stops waiting; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What {@link resolvePersonAnswers} gives back. */
export interface ResolvedPersonAnswers {
  /** The conversation with each settled ticket replaced by its outcome: pass it to the next `generateText`. */
  messages: ModelMessage[];
  /** The outcomes put in this time (answered, or nothing with its reason). */
  settled: PersonAskResult[];
  /** The tickets still waiting for a person. */
  waiting: PersonTicket[];
}

/** Where a ticket sits in the conversation. */
interface TicketAt {
  messageIndex: number;
  partIndex: number;
  ticket: PersonTicket;
}

function ticketsIn(messages: readonly ModelMessage[]): TicketAt[] {
  const found: TicketAt[] = [];
  messages.forEach((message, messageIndex) => {
    if (message.role !== "tool") return;
    message.content.forEach((part, partIndex) => {
      if (part.type !== "tool-result" || part.output.type !== "json") return;
      const value = part.output.value;
      if (isPersonAskResult(value) && value.status === "waiting") found.push({ messageIndex, partIndex, ticket: value });
    });
  });
  return found;
}

/**
 * Looks up every person's answer the conversation is waiting for — the tickets {@link askPersonTool}
 * returned — and puts each settled one in place of its ticket, as that tool call's result: the
 * answer, or `{ ok: false, reason, message }` when nobody answered (declined, expired, cancelled…).
 * The next `generateText` with these messages shows the model the outcome as if the tool had just
 * returned it. Tickets still open stay as they are, listed in `waiting`.
 *
 * Works from the messages alone (the ask ids are in the tickets), so it may run in another process,
 * hours later, after restarts of the app or of Parley. Returns a new array; the messages given are
 * not changed.
 */
export async function resolvePersonAnswers(messages: readonly ModelMessage[], options: ResolvePersonAnswersOptions): Promise<ResolvedPersonAnswers> {
  const wait = options.wait ?? 0;
  if (!(wait >= 0)) throw new RangeError("wait is a number of seconds, 0 or more.");
  const tickets = ticketsIn(messages);
  const asks: Record<string, Ask> = Object.create(null);
  const deadline = Date.now() + wait * 1000;
  const request = options.signal ? { signal: options.signal } : {};

  let open = [...new Set(tickets.map((each) => each.ticket.askId))];
  for (let first = true; open.length > 0; first = false) {
    const remaining = Math.floor((deadline - Date.now()) / 1000);
    if (!first && remaining <= 0) break;
    const hold = Math.max(0, Math.min(60, remaining));
    const found = await Promise.all(open.map((id) => options.client.getAsk(id, { wait: hold, ...request })));
    for (const ask of found) asks[ask.id] = ask;
    open = found.filter((ask) => ask.status === "open").map((ask) => ask.id);
    if (hold === 0) break;
  }

  const next = [...messages];
  const settled: PersonAskResult[] = [];
  const waiting: PersonTicket[] = [];
  for (const { messageIndex, partIndex, ticket } of tickets) {
    const ask = asks[ticket.askId];
    if (!ask || ask.status === "open") {
      waiting.push(ticket);
      continue;
    }
    const outcome = personAskResult(ask, ticket.to, ticket.choices);
    settled.push(outcome);
    const message = next[messageIndex] as Extract<ModelMessage, { role: "tool" }>;
    const content = [...message.content];
    const part = content[partIndex] as ToolResultPart;
    content[partIndex] = { ...part, output: { type: "json", value: outcome as unknown as Extract<ToolResultPart["output"], { type: "json" }>["value"] } };
    next[messageIndex] = { ...message, content };
  }
  return { messages: next, settled, waiting };
}
