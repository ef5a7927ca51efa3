import { getDb } from "@/lib/database";
import { hasPartInTask } from "@/db/queries/inbox";
import { hasAnyRole } from "@/lib/auth/roles";
import { admitLiveStream, STREAM_REPLACED_EVENT, isInAudience, type LiveEventForBrowser, subscribeLiveEvents } from "@/lib/live-events";
import { authorizeRequest } from "@/lib/server/session";
import { RECONNECT_AFTER_SECONDS, shutdownSignal } from "@/lib/server/shutdown";
import { isUuid } from "@/lib/ids";

export const dynamic = "force-dynamic";

// Proxies and browsers drop an idle stream; a comment line every so often keeps it open.
const HEARTBEAT_MS = 20_000;

/**
 * Server-sent events for the signed-in person: the kinds and ids of changes they may see, as they
 * happen. Screens re-read what they show when one arrives. With `?task=<id>`, also every change to
 * that task's run — for someone with a part in it (asked or answered there), an operator or an admin.
 */
export async function GET(request: Request) {
  const user = await authorizeRequest();
  if (user instanceof Response) return user;
  const task = new URL(request.url).searchParams.get("task");
  let watchedTask: string | undefined;
  if (task !== null) {
    const allowed = isUuid(task) && (hasAnyRole(user.roles, ["operator", "admin"]) || (await hasPartInTask(await getDb(), task, user.id)));
    if (!allowed) return Response.json({ error: { code: "not_found", message: "We couldn't find that." } }, { status: 404 });
    watchedTask = task;
  }

  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      const unsubscribe = await subscribeLiveEvents((event) => {
        if (!isInAudience(user, event) && !(watchedTask && event.taskId === watchedTask)) return;
        const forBrowser: LiveEventForBrowser = { kind: event.kind, taskId: event.taskId, questionId: event.questionId };
        send(`event: change\ndata: ${JSON.stringify(forBrowser)}\n\n`);
      });
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), HEARTBEAT_MS);
      // Opening one stream too many closes this person's oldest.
      const release = admitLiveStream(user.id, () => {
        send(`event: ${STREAM_REPLACED_EVENT}\ndata: {}\n\n`);
        stop();
      });
      stop = () => {
        release();
        clearInterval(heartbeat);
        unsubscribe();
        try {
          controller.close();
        } catch {
          // already closed by the client going away
        }
      };
      request.signal.addEventListener("abort", () => stop(), { once: true });
      // A process that begins to stop ends its streams, telling browsers to reconnect soon (to another process).
      const closing = () => {
        send(`retry: ${RECONNECT_AFTER_SECONDS * 1000}\n: this server is stopping\n\n`);
        stop();
      };
      if (shutdownSignal().aborted) return closing();
      shutdownSignal().addEventListener("abort", closing, { once: true });
      const forget = stop;
      stop = () => {
        shutdownSignal().removeEventListener("abort", closing);
        forget();
      };
      send("retry: 3000\n: connected\n\n");
    },
    cancel() {
      stop();
    },
  });

  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
