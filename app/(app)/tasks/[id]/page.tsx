import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { getAppRuntime } from "@/lib/app-runtime";
import { hasAnyRole } from "@/lib/auth/roles";
import { getDb } from "@/lib/database";
import { escalationText, formatTurnDuration, handoffGraph, type RunEntry, runEntries, runStateWords } from "@/lib/run-view";
import { definitionFailureIn, definitionFailureMessage } from "@/lib/runtime/definition-errors";
import { nothingReasonWords } from "@/lib/question-view";
import { listAnswersForTask, loadRunPage, namesOf } from "@/lib/runs";
import { formatDuration } from "@/lib/sla-clock";
import { requirePageUser } from "@/lib/server/session";
import { cancelRunAction, retryRunAction } from "./actions";
import { CancelRunForm } from "./cancel-run-form";
import { runAgainAction } from "../../runs/actions";
import { RunAgainForm } from "../../runs/run-again-form";
import { HandoffGraphView } from "./handoff-graph";
import { RetryForm } from "./retry-form";
import { ContextFacts } from "@/components/context-facts";
import { isUuid } from "@/lib/ids";
import { LongText } from "@/components/long-text";

export const metadata: Metadata = { title: "Run" };

/** Ids of people the events mention, so their names can be read in one query. */
function peopleIn(events: readonly { data: Record<string, unknown> }[]): string[] {
  const ids: string[] = [];
  for (const event of events) {
    for (const key of ["by", "to", "from", "assigneeId"] as const) {
      const value = event.data?.[key];
      if (isUuid(value)) ids.push(value);
    }
  }
  return ids;
}

function clock(at: Date): string {
  return at.toISOString().slice(11, 19);
}

/** One line of a run's story; `workflow` names who acts for the flow itself (an API ask: the key that asked). */
function Entry({ entry, workflow }: { entry: RunEntry; workflow: string }): ReactNode {
  switch (entry.kind) {
    case "started":
      return (
        <>
          <span className="who">Run</span> started: <strong>{entry.workflow}</strong>
        </>
      );
    case "state":
      return (
        <>
          <span className="who">State</span> entered <strong>{entry.state}</strong>
          {entry.from ? <span className="muted"> from {entry.from}</span> : null}
        </>
      );
    case "turn":
      return (
        <>
          <span className="who">{entry.agent}</span>{" "}
          {entry.status === "thinking" ? (
            "is taking a model turn…"
          ) : entry.status === "failed" ? (
            <>
              model turn failed{entry.durationMs !== null ? ` after ${formatTurnDuration(entry.durationMs)}` : ""}: <span className="cause">{entry.cause}</span>
            </>
          ) : (
            <>model turn{entry.durationMs !== null ? <> · <span data-testid="turn-duration">{formatTurnDuration(entry.durationMs)}</span></> : null}</>
          )}
          {entry.tools.length > 0 ? <span className="muted"> · called {entry.tools.join(", ")}</span> : null}
        </>
      );
    case "question":
      return (
        <>
          <span className="who">{entry.agent ? entry.asker : workflow}</span> asked{entry.to ? ` ${entry.to}` : ""}
          {entry.title ? (
            <>
              : <strong>{entry.title}</strong>
            </>
          ) : null}
          <ul className="run-question-fields">
            {entry.fields.map((field, index) => (
              <li key={index}>
                <span className="pre">{field.question}</span>
                {field.options.length > 0 ? <span className="muted"> — options: {field.options.join(" · ")}</span> : null}
              </li>
            ))}
          </ul>
        </>
      );
    case "parked":
      return (
        <>
          <span className="who">{entry.agent ?? workflow}</span> parked: the run holds nothing open while it waits
        </>
      );
    case "slot-opened":
      return (
        <>
          <span className="who">Waiting</span> for {entry.assignee ? `an answer from ${entry.assignee}` : "an answer"}
          {entry.candidates > 1 ? ` (or any of ${entry.candidates} people)` : ""}
          {entry.dueAt ? <span className="muted"> · due {entry.dueAt.toISOString().slice(0, 16).replace("T", " ")} UTC</span> : null}
        </>
      );
    case "answer":
      return (
        <>
          <span className="who">Answer</span> from <strong>{entry.by}</strong>
          {entry.waitMs !== null ? ` after waiting ${formatDuration(entry.waitMs)}` : ""}
          {entry.answer ? <LongText text={entry.answer} /> : null}
        </>
      );
    case "refused":
      return (
        <>
          <span className="who">Refused</span> {entry.by}&rsquo;s answer (attempt {entry.attempt} of {entry.of})
        </>
      );
    case "nothing":
      return (
        <>
          <span className="who">No answer</span> {entry.reason === "cancelled" && entry.by ? `— withdrawn: ${entry.by} cancelled the run` : `— ${nothingReasonWords(entry.reason, "no answer came")}`}
        </>
      );
    case "slot-expired":
      return (
        <>
          <span className="who">Expired</span> unanswered{entry.waitMs !== null ? ` after waiting ${formatDuration(entry.waitMs)}` : ""}
        </>
      );
    case "reassigned":
      return (
        <>
          <span className="who">Reassigned</span> {entry.from ? `from ${entry.from} ` : ""}to <strong>{entry.to}</strong>
          {entry.by ? ` by ${entry.by}` : ""}
        </>
      );
    case "escalated":
      return (
        <>
          <span className="who">Clock</span> <span data-testid="escalated">{escalationText(entry)}</span>
        </>
      );
    case "claimed":
      return (
        <>
          <strong>{entry.by}</strong> {entry.given ? "gave the question back to the team" : "took the question"}
        </>
      );
    case "resumed":
      return (
        <>
          <span className="who">{entry.agent ?? workflow}</span> resumed with the answer as its question&rsquo;s result
        </>
      );
    case "failed":
      return (
        <>
          <span className="who">Failed</span>
          {entry.state ? ` in ${entry.state}` : ""}: <span className="cause">{entry.cause}</span>
          {entry.retryable ? <span className="muted"> · {entry.code === "model_unavailable" ? "a model error" : "an error"} — can be retried</span> : null}
          {!entry.retryable && entry.code === "definition_error" ? <span className="muted"> · the workflow is wrong — cannot be retried</span> : null}
        </>
      );
    case "completed":
      return (
        <>
          <span className="who">Completed</span>
          {entry.state && entry.state !== "Completed" ? ` in ${entry.state}` : ""}
        </>
      );
    case "cancelled":
      return (
        <>
          <span className="who">Cancelled</span> by <strong>{entry.by}</strong>
          {entry.state ? ` in ${entry.state}` : ""}
          {entry.withdrawn > 0 ? <span className="muted"> · {entry.withdrawn === 1 ? "its open question was" : `${entry.withdrawn} open questions were`} withdrawn</span> : null}
        </>
      );
  }
}

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requirePageUser(["operator", "admin"]);
  const { id } = await params;
  if (!isUuid(id)) notFound();
  const db = await getDb();
  const { runtime, registry } = await getAppRuntime();
  const page = await loadRunPage(db, registry, id);
  if (!page) notFound();
  const events = await runtime.events(id);
  const [names, answers] = await Promise.all([namesOf(db, peopleIn(events)), listAnswersForTask(db, id)]);
  const entries = runEntries(events, { names, answers });
  const graph = handoffGraph(events);
  const { run, subject, context } = page;
  const workflow = run.workflow;
  const runState = runStateWords(run);
  const lastFailure = [...entries].reverse().find((entry): entry is Extract<RunEntry, { kind: "failed" }> => entry.kind === "failed");
  const stoppedByDefinition = run.status === "failed" ? definitionFailureIn(events) : undefined;
  const cancelledBy = run.status === "cancelled" ? [...entries].reverse().find((entry): entry is Extract<RunEntry, { kind: "cancelled" }> => entry.kind === "cancelled") : undefined;
  // A run that has not ended can be cancelled (a retryable one too: that gives up on the retry).
  const cancellable = page.registered && (run.status === "running" || run.status === "waiting" || run.status === "retryable");
  // An ended run's item can be run again where its workflow offers it (e.g. "Review again"), after the same kind of step to confirm.
  const again = run.status === "completed" || run.status === "failed" || run.status === "cancelled" ? registry.entry(workflow)?.again : undefined;
  const mayRunAgain = again !== undefined && hasAnyRole(user.roles, again.roles ?? ["operator"]);
  const now = new Date();

  return (
    <article className="run-page">
      <p className="muted">
        <Link href="/runs">← Runs</Link>
      </p>
      <header className="run-header">
        <p className="asker">
          {page.workflowLabel} · started by {page.startedByName ?? "the system"} {formatDuration(now.getTime() - run.startedAt.getTime())} ago
        </p>
        <h1>{subject?.title ?? `${page.workflowLabel} run`}</h1>
        {subject?.summary ? <p className="muted">{subject.summary}</p> : null}
        <p className="run-status" data-testid="run-status">
          <span className={`badge status-${run.runState}`}>{runState.label}</span>
          {runState.note ? <span className="muted"> ({runState.note})</span> : null}
          {/* The workflow's own state, where it says more than the badge. */}
          {run.state !== runState.label ? (
            <>
              {" "}
              in state <strong>{run.state}</strong>
            </>
          ) : null}
          {run.waitingOn ? <> · waiting on <strong>{run.waitingOn}</strong></> : null}
        </p>
      </header>

      {run.status === "retryable" ? (
        <section className="card-plain run-failure" aria-label="Failure">
          <p>
            The run failed{lastFailure ? <>: <span className="cause">{lastFailure.cause}</span></> : null}. {lastFailure?.code === "model_unavailable" ? "It was a model error, so" : "It"} can be retried where it stopped.
          </p>
          {!page.registered ? (
            <p className="muted">Its workflow, {workflow}, is not registered in parley.config.ts, so it cannot be retried here.</p>
          ) : hasAnyRole(user.roles, ["operator"]) ? (
            <RetryForm taskId={id} action={retryRunAction} />
          ) : (
            <p className="muted">An operator can retry it.</p>
          )}
        </section>
      ) : null}

      {stoppedByDefinition ? (
        <section className="card-plain run-failure" aria-label="Failure" data-testid="definition-failure">
          <p>{definitionFailureMessage(workflow, stoppedByDefinition.cause)}</p>
        </section>
      ) : null}

      {cancelledBy ? (
        <section className="card-plain" aria-label="Cancelled" data-testid="run-cancelled">
          <p>
            {cancelledBy.by} cancelled this run {formatDuration(now.getTime() - cancelledBy.at.getTime())} ago
            {cancelledBy.withdrawn > 0 ? `; ${cancelledBy.withdrawn === 1 ? "its open question was" : `its ${cancelledBy.withdrawn} open questions were`} withdrawn` : ""}. Nothing of it runs again.
          </p>
        </section>
      ) : null}

      {cancellable ? <CancelRunForm taskId={id} waitingOn={run.waitingOn} action={cancelRunAction} /> : null}
      {again && mayRunAgain ? (
        <div className="run-again" data-testid="run-again">
          <RunAgainForm taskId={id} label={again.label} subject={subject?.title ?? `${page.workflowLabel} run`} action={runAgainAction} />
        </div>
      ) : null}

      <div className="run-layout">
        <section className="card-plain" aria-label="Run events">
          <h2>What happened</h2>
          {entries.length === 0 ? (
            <p className="muted">Nothing has happened yet.</p>
          ) : (
            <ol className="run-events" data-testid="run-events">
              {entries.map((entry) => (
                <li key={entry.id} className={`run-entry ${entry.kind}`} data-testid="run-entry" data-kind={entry.kind}>
                  <time dateTime={entry.at.toISOString()} title={entry.at.toISOString()}>
                    {clock(entry.at)}
                  </time>
                  <div className="run-entry-body">
                    <Entry entry={entry} workflow={subject?.askedBy ?? workflow} />
                  </div>
                </li>
              ))}
            </ol>
          )}
        </section>

        <aside aria-label="Context">
          <section className="card-plain" aria-label="Who handed to whom">
            <h2>Who handed to whom</h2>
            <HandoffGraphView graph={graph} />
          </section>
          {context ? <ContextFacts panel={context} /> : null}
        </aside>
      </div>
    </article>
  );
}
