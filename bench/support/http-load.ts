// A load generator, run as a child process of the answers-over-HTTP benchmark (so that its work is
// not counted against the server's share of the machine): virtual clients over kept-alive sockets,
// each answering its own list of questions one request at a time — through the real answer action
// (the browser's road) or the person's API route (a personal token's road).
import http from "node:http";
import { answerOutcome, type AnswerOutcome, apiAnswerOutcome, formActionBody, postAction, postJson, questionRouterState } from "./http-actions";

/** One thing a virtual client does: answer a question, or send two answers to one question at once. */
export type LoadItem =
  | { type: "answer"; questionId: string; person: number; fields: Record<string, string>; signedOut?: boolean }
  | { type: "race"; questionId: string; people: [number, number]; fields: Record<string, string> };

/** Which road an answer takes: the question page's answer action, or `POST /api/v1/questions/{id}/answer`. */
export type AnswerRoad = "action" | "api";

/** What the parent sends: where, as whom, and each client's list. */
export interface LoadJob {
  /** The servers' origins: client i sends to the (i mod n)-th. */
  bases: string[];
  road: AnswerRoad;
  actionId: string;
  /** Session cookies by person index (the action's road). */
  cookies: Record<number, string>;
  /** Personal tokens by person index (the API's road). */
  tokens: Record<number, string>;
  /** One list per virtual client. */
  clients: LoadItem[][];
}

/** One request as the client saw it; times are epoch milliseconds (comparable across processes). */
export interface LoadResult {
  questionId: string;
  person: number;
  race: boolean;
  status: number;
  outcome: AnswerOutcome | "error";
  message: string;
  start: number;
  end: number;
}

/** What the child sends back for a job. */
export interface LoadReport {
  results: LoadResult[];
  /** The load generator's own CPU time over the job, milliseconds. */
  cpuMs: number;
}

const clock = () => performance.timeOrigin + performance.now();

async function send(
  agent: http.Agent,
  job: LoadJob,
  base: URL,
  questionId: string,
  person: number,
  fields: Record<string, string>,
  race: boolean,
  signedOut = false,
): Promise<LoadResult> {
  const start = clock();
  try {
    if (job.road === "api") {
      // The route takes each field's text as typed; the question is in its path.
      const response = await postJson(agent, base, { path: `/api/v1/questions/${questionId}/answer`, ...(signedOut ? {} : { key: job.tokens[person] }), body: { answers: fields } });
      return { questionId, person, race, status: response.status, ...apiAnswerOutcome(response.status, response.body), start, end: clock() };
    }
    const { body, contentType } = formActionBody(job.actionId, null, fields);
    const response = await postAction(agent, base, {
      path: `/questions/${questionId}`,
      actionId: job.actionId,
      routerState: questionRouterState(questionId),
      ...(signedOut ? {} : { cookie: job.cookies[person] }),
      body,
      contentType,
    });
    const { outcome, message } = response.status === 200 ? answerOutcome(response.body) : { outcome: "error" as const, message: response.body.slice(0, 200) };
    return { questionId, person, race, status: response.status, outcome, message, start, end: clock() };
  } catch (error) {
    return { questionId, person, race, status: 0, outcome: "error", message: String(error), start, end: clock() };
  }
}

/**
 * Runs every client's list concurrently; each client waits for one reply before its next request.
 * Client i talks to the (i mod n)-th server; a race's second request goes to the next one (two
 * instances at once, when there are several).
 */
export async function runJob(job: LoadJob, agent: http.Agent): Promise<LoadReport> {
  const bases = job.bases.map((each) => new URL(each));
  const cpuBefore = process.cpuUsage();
  const results: LoadResult[] = [];
  await Promise.all(
    job.clients.map(async (items, client) => {
      const base = bases[client % bases.length]!;
      const other = bases[(client + 1) % bases.length]!;
      for (const item of items) {
        if (item.type === "answer") {
          results.push(await send(agent, job, base, item.questionId, item.person, item.fields, false, item.signedOut));
        } else {
          const [first, second] = item.people;
          results.push(
            ...(await Promise.all([
              send(agent, job, base, item.questionId, first, item.fields, true),
              send(agent, job, other, item.questionId, second, item.fields, true),
            ])),
          );
        }
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return { results, cpuMs: (cpu.user + cpu.system) / 1000 };
}

// As a child process: jobs arrive over IPC, one at a time, on sockets kept alive between them.
if (process.send) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number(process.env.BENCH_HTTP_SOCKETS ?? 256) });
  process.on("message", (message: { type: "run"; job: LoadJob } | { type: "exit" }) => {
    if (message.type === "exit") {
      agent.destroy();
      process.exit();
    }
    void runJob(message.job, agent).then((report) => process.send!({ type: "done", report }));
  });
  // The benchmark ended (or died): so does its load generator.
  process.on("disconnect", () => process.exit());
  process.send({ type: "ready" });
}
