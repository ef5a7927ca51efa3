import type { StoredMessage } from "@/db/queries/runtime-conversations";

/** A conversation as this runtime last read it: every message, in order. */
export interface CachedConversation {
  readonly id: string;
  readonly messages: readonly StoredMessage[];
}

/**
 * The conversations a runtime has read lately, so that the next turn reads only the messages appended
 * since (messages are numbered in commit order and never rewritten, so what is held here stays true;
 * other instances' appends are simply read next time). Least recently used conversations are dropped
 * once more than `maxMessages` messages are held; the conversation just read is always kept, however
 * long — a conversation turned over often is the one that gains most from not being read again.
 */
export class ConversationCache {
  readonly #entries = new Map<string, CachedConversation>();
  #held = 0;

  // Ten thousand stored messages are a few megabytes of heap: enough to keep a conversation a thousand
  // questions long beside the many short ones a busy server turns over.
  constructor(private readonly maxMessages = 10_000) {}

  /** The conversation of `agent` about `taskId`, if held. */
  get(agent: string, taskId: string): CachedConversation | undefined {
    const key = keyOf(agent, taskId);
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    // Map order is insertion order: re-inserting marks it most recently used.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry;
  }

  /** Holds a conversation as just read (its messages from the first one). */
  set(agent: string, taskId: string, conversation: CachedConversation): void {
    const key = keyOf(agent, taskId);
    const previous = this.#entries.get(key);
    if (previous) {
      this.#held -= previous.messages.length;
      this.#entries.delete(key);
    }
    this.#entries.set(key, conversation);
    this.#held += conversation.messages.length;
    for (const [oldest, entry] of this.#entries) {
      if (this.#held <= this.maxMessages || oldest === key) break;
      this.#entries.delete(oldest);
      this.#held -= entry.messages.length;
    }
  }
}

function keyOf(agent: string, taskId: string): string {
  return `${agent}\u0000${taskId}`;
}
