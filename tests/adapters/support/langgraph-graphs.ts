import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Annotation, type BaseCheckpointSaver, END, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { askPerson, type PersonAnswer } from "@parleyhq/client/langgraph";
import { z } from "zod";

/**
 * LangGraph's PostgreSQL checkpointer on the test's own Parley database, in a schema of its own — a
 * new instance is what an agent process has after its restart. `end()` closes its pool.
 */
export async function postgresCheckpointer(databaseUrl: string): Promise<PostgresSaver> {
  const checkpointer = PostgresSaver.fromConnString(databaseUrl, { schema: "langgraph" });
  await checkpointer.setup();
  return checkpointer;
}

const Offsite = Annotation.Root({
  budget: Annotation<PersonAnswer<{ euros: number; catering: boolean }>>(),
  venue: Annotation<PersonAnswer<string>>(),
  plan: Annotation<string>(),
});

/** Two branches that each ask Sam at once (a JSON Schema question and a free-text one), and a step after both that plans with the two answers. */
export function offsiteGraph(checkpointer: BaseCheckpointSaver) {
  return new StateGraph(Offsite)
    .addNode("askBudget", async () => ({
      budget: (await askPerson({
        to: "sam@parley.test",
        title: "Offsite budget?",
        responseSchema: {
          type: "object",
          properties: { euros: { type: "integer", minimum: 0, description: "How many euros?" }, catering: { type: "boolean", description: "Catering included?" } },
          required: ["euros", "catering"],
        },
      })) as PersonAnswer<{ euros: number; catering: boolean }>,
    }))
    .addNode("askVenue", async () => ({ venue: await askPerson({ to: "sam@parley.test", title: "Offsite venue?" }) }))
    .addNode("makePlan", async ({ budget, venue }) => ({
      plan: budget.ok && venue.ok ? `${venue.value}, ${budget.value.euros} euros, ${budget.value.catering ? "with" : "without"} catering` : "no plan",
    }))
    .addEdge(START, "askBudget")
    .addEdge(START, "askVenue")
    .addEdge(["askBudget", "askVenue"], "makePlan")
    .addEdge("makePlan", END)
    .compile({ checkpointer });
}

const Rotation = Annotation.Root({ rotate: Annotation<boolean>(), notify: Annotation<string>(), done: Annotation<string>() });

/** One node that asks Sam twice in a row, and a step after it whose runs `runs.after` counts. */
export function keyRotationGraph(checkpointer: BaseCheckpointSaver, runs: { after: number }) {
  return new StateGraph(Rotation)
    .addNode("decide", async () => {
      const rotate = await askPerson({ to: "sam@parley.test", title: "Rotate the signing keys?", schema: z.object({ rotate: z.boolean().describe("Rotate them now?") }) });
      const notify = await askPerson({ to: "sam@parley.test", title: "Who should hear about the rotation?" });
      return { rotate: rotate.ok && rotate.value.rotate, notify: notify.ok ? notify.value : `nobody (${notify.reason})` };
    })
    .addNode("after", async ({ rotate, notify }) => {
      runs.after += 1;
      return { done: `${rotate ? "rotated" : "kept"}; told ${notify}` };
    })
    .addEdge(START, "decide")
    .addEdge("decide", "after")
    .addEdge("after", END)
    .compile({ checkpointer });
}

/** A webhook request as the receiver got it. */
export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A loopback HTTP receiver for Parley's callbacks, as an agent's web process has: each POST is handed
 * to `handle`; a 2xx when it returns, a 500 when it throws (Parley then sends it again).
 */
export async function startWebhookReceiver(handle: (delivery: Delivery) => Promise<unknown>) {
  const deliveries: Delivery[] = [];
  const outcomes: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const delivery = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      deliveries.push(delivery);
      handle(delivery).then(
        (outcome) => {
          outcomes.push(outcome);
          response.writeHead(204).end();
        },
        (error: unknown) => {
          outcomes.push(error);
          response.writeHead(500).end(String(error));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/parley`,
    deliveries,
    outcomes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
