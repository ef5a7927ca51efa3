/** The thread side of threaded.ts: opens the contender its spec names and answers the main thread's requests in order. */
import { parentPort, workerData } from "node:worker_threads";
import { recordCollections, type Span } from "../support/stats";
import { openLangGraph } from "./langgraph";
import { openParley } from "./parley";
import { openRawPglite, openRawPostgres } from "./raw-insert";
import type { PeerSpec, ThreadReply, ThreadRequest } from "./threaded";

interface Runnable {
  once(): Promise<void>;
  verify(): Promise<number>;
  close(): Promise<void>;
}

async function open(spec: PeerSpec): Promise<Runnable> {
  switch (spec.peer) {
    case "parley": {
      const contender = await openParley(spec.target, spec.behaviour);
      return { once: () => contender.cycle(), verify: () => contender.verifyCompleted(), close: () => contender.close() };
    }
    case "langgraph": {
      const contender = await openLangGraph(spec.url, spec.behaviour);
      return { once: () => contender.cycle(), verify: () => contender.verifyFinished(), close: () => contender.close() };
    }
    case "raw":
      return spec.target.kind === "postgres" ? openRawPostgres(spec.target.url) : openRawPglite(spec.target.storage);
  }
}

const port = parentPort!;
const reply = (message: ThreadReply) => port.postMessage(message);
const errorText = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

try {
  const contender = await open(workerData as PeerSpec);
  const collecting = recordCollections();
  const cycles: Span[] = [];
  const handle = async (request: ThreadRequest): Promise<unknown> => {
    switch (request.op) {
      case "once": {
        const start = performance.now();
        await contender.once();
        const end = performance.now();
        cycles.push({ start, end });
        return end - start;
      }
      case "collections":
        return { cycles, pauses: collecting.peek() };
      case "cpu": {
        const before = process.cpuUsage();
        for (let cycle = 0; cycle < request.cycles; cycle++) await contender.once();
        const used = process.cpuUsage(before);
        return (used.user + used.system) / 1_000 / request.cycles;
      }
      case "verify":
        return contender.verify();
      case "close":
        collecting.stop();
        return contender.close();
    }
  };
  // Requests come one at a time (the main thread awaits each answer), so they are handled in order.
  port.on("message", (request: ThreadRequest) => {
    handle(request).then(
      (value) => reply({ ok: true, value }),
      (error: unknown) => reply({ ok: false, error: errorText(error) }),
    );
  });
  reply({ ok: true, value: undefined });
} catch (error) {
  reply({ ok: false, error: errorText(error) });
}
