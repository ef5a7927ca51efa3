import { Annotation, type BaseCheckpointSaver, END, START, StateGraph } from "@langchain/langgraph";
import { createParleyClient } from "@parleyhq/client";
import { askPerson, createParleyInterrupts } from "@parleyhq/client/langgraph";
import { z } from "zod";

const Deploy = Annotation.Root({ release: Annotation<string>(), outcome: Annotation<string>() });
const Approval = z.object({ go: z.boolean().describe("Deploy it now?"), window_hours: z.int().min(1).max(12).describe("Within how many hours?") });
export const deployGraph = (checkpointer: BaseCheckpointSaver) =>
  new StateGraph(Deploy)
    .addNode("approve", async ({ release }) => {
      const answer = await askPerson({ to: "sam@parley.test", title: `Deploy ${release}?`, schema: Approval, within: { hours: 4 } });
      if (!answer.ok) return { outcome: `held: nobody answered (${answer.reason})` };
      return { outcome: answer.value.go ? `deploying within ${answer.value.window_hours} h` : "held by Sam" };
    })
    .addEdge(START, "approve").addEdge("approve", END)
    .compile({ checkpointer });

export const interruptsFor = (graph: ReturnType<typeof deployGraph>, parley: { baseUrl: string; apiKey: string }, callbackUrl?: string) =>
  createParleyInterrupts({ graph, parley: createParleyClient(parley), ...(callbackUrl ? { callbackUrl } : {}) });
// Runs until the graph asks Sam, then asks him through Parley: this process may exit while he thinks.
export async function startDeploy(graph: ReturnType<typeof deployGraph>, parley: ReturnType<typeof interruptsFor>, release: string) {
  const config = { configurable: { thread_id: `deploy-${release}` } };
  await graph.invoke({ release }, config);
  return parley.askPending(config);
}
// Any process, any time later (or a webhook: parley.handleWebhook): his answer resumes the thread.
export const finishDeploy = async (parley: ReturnType<typeof interruptsFor>, release: string) =>
  (await parley.resumeWhenAnswered(`deploy-${release}`)).values;
