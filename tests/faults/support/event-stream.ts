import type { HttpClient } from "./http-client";

/** One server-sent event, with when it arrived. */
export interface ReceivedEvent {
  at: number;
  data: string;
}

/**
 * Reads a server-sent event stream as `client` until closed, keeping every `data:` line with its
 * arrival time; a stream the server ends is recorded in `error()` (a browser would reconnect).
 */
export function openEventStream(client: HttpClient, pathname: string): { events: ReceivedEvent[]; close(): void; ended: Promise<void>; error(): unknown } {
  const events: ReceivedEvent[] = [];
  let failure: unknown;
  const abort = new AbortController();
  const ended = (async () => {
    const response = await fetch(new URL(pathname, client.baseUrl), {
      headers: { cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; "), accept: "text/event-stream" },
      signal: abort.signal,
    });
    if (!response.ok || !response.body) throw new Error(`the event stream answered ${response.status}`);
    const decoder = new TextDecoder();
    let buffered = "";
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("data:")) events.push({ at: Date.now(), data: line.slice(5).trim() });
    }
  })().catch((error: unknown) => {
    if (!abort.signal.aborted) failure = error;
  });
  return { events, close: () => abort.abort(), ended, error: () => failure };
}
