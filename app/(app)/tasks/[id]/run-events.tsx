import Link from "next/link";
import type { ReactNode } from "react";
import { LocalTime } from "@/components/local-time";
import { LongText } from "@/components/long-text";
import { explainModelFailure } from "@/lib/models/explain-failure";
import { agentWords } from "@/lib/plain-words";
import { nothingReasonWords } from "@/lib/question-view";
import { humanizeName } from "@/lib/questions";
import type { RunHistory } from "@/lib/run-history";
import { escalationText, formatTurnDuration, type RunEntry } from "@/lib/run-view";
import { formatDuration } from "@/lib/sla-clock";


/** The model the run's agents call, to say what to check when a call to it failed. */
type RunModel = Parameters<typeof explainModelFailure>[1];

/** How screens say a workflow's state and an agent's name (lib/plain-words): never the code names. */
export interface PlainNames {
  state(name: string): string;
  agent(name: string): string;
}

const NAMES_IN_WORDS: PlainNames = { state: humanizeName, agent: agentWords };

/** One line of a run's story; `workflow` names who acts for the flow itself (an API ask: the key that asked). */
function Entry({ entry, workflow, workflowLabel, model, plain }: { entry: RunEntry; workflow: string; workflowLabel: string; model: RunModel; plain: PlainNames }): ReactNode {
  switch (entry.kind) {
    case "started":
      return (
        <>
          <span className="who">Run</span> started: <strong>{workflowLabel}</strong>
        </>
      );
    case "state":
      return (
        <>
          <span className="who">State</span> entered <strong>{plain.state(entry.state)}</strong>
          {entry.from ? <span className="muted"> from {plain.state(entry.from)}</span> : null}
        </>
      );
    case "turn":
      return (
        <>
          <span className="who">{plain.agent(entry.agent)}</span>{" "}
          {entry.status === "thinking" ? (
            "is taking a model turn…"
          ) : entry.status === "failed" ? (
            <>
              model turn failed{entry.durationMs !== null ? ` after ${formatTurnDuration(entry.durationMs)}` : ""}: <span className="cause">{entry.cause}</span>
              <ModelAdvice cause={entry.cause} model={model} />
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
          <span className="who">{entry.agent ? plain.agent(entry.asker) : workflow}</span> asked{entry.to ? ` ${entry.to}` : ""}
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
          <span className="who">{entry.agent ? plain.agent(entry.agent) : workflow}</span> waits for the answer; nothing of the run is running meanwhile
        </>
      );
    case "slot-opened":
      return (
        <>
          <span className="who">Waiting</span> for {entry.assignee ? `an answer from ${entry.assignee}` : "an answer"}
          {entry.candidates > 1 ? ` (or any of the ${entry.candidates} people it was put to, whoever answers first)` : ""}
          {entry.dueAt ? (
            <span className="muted">
              {" "}
              · due <LocalTime at={entry.dueAt.toISOString()} />
            </span>
          ) : null}
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
      if (entry.reason === "declined") {
        return (
          <>
            <span className="who">Declined</span> by {entry.by ?? "the person asked"}
            {entry.note ? (
              <>
                , noting: <q>{entry.note}</q>
              </>
            ) : null}
          </>
        );
      }
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
          <span className="who">{entry.agent ? plain.agent(entry.agent) : workflow}</span> resumed with the answer as its question&rsquo;s result
        </>
      );
    case "failed":
      return (
        <>
          <span className="who">Failed</span>
          {entry.state ? ` in ${plain.state(entry.state)}` : ""}: <span className="cause">{entry.cause}</span>
          {entry.retryable ? <span className="muted"> · {entry.code === "model_unavailable" ? "a model error" : "an error"} — can be retried</span> : null}
          {!entry.retryable && entry.code === "definition_error" ? <span className="muted"> · the workflow is wrong — cannot be retried</span> : null}
        </>
      );
    case "completed":
      return (
        <>
          <span className="who">Completed</span>
          {entry.state && entry.state !== "Completed" ? ` in ${plain.state(entry.state)}` : ""}
        </>
      );
    case "retried":
      return (
        <>
          <span className="who">Retried</span> by <strong>{entry.by}</strong>
        </>
      );
    case "cancelled":
      return (
        <>
          <span className="who">Cancelled</span> by <strong>{entry.by}</strong>
          {entry.state ? ` in ${plain.state(entry.state)}` : ""}
          {entry.withdrawn > 0 ? <span className="muted"> · {entry.withdrawn === 1 ? "its open question was" : `${entry.withdrawn} open questions were`} withdrawn</span> : null}
        </>
      );
  }
}

/** The address of a page of a run's events: its latest (no cursor), or those before event `before`. */
export function runEventsHref(taskId: string, before?: number): string {
  return `/tasks/${taskId}${before === undefined ? "" : `?before=${before}`}#run-events`;
}

/**
 * What happened in a run, a page of its events at a time (lib/run-history's `loadRunHistory`): the
 * latest, oldest first as a story reads, with a plain link to the page before them and, on an older
 * page, the way back to the latest. Both work without JavaScript.
 */
/** What to check when a model call failed, where the cause says (a model that could not be reached, a key refused…). */
function ModelAdvice({ cause, model }: { cause: string | null; model: RunModel }) {
  const advice = cause ? explainModelFailure(cause, model) : null;
  return advice ? (
    <span className="model-advice" data-testid="model-advice">
      {advice}
    </span>
  ) : null;
}

export function RunEvents({
  taskId,
  history,
  workflow,
  workflowLabel,
  model,
  plain = NAMES_IN_WORDS,
}: {
  taskId: string;
  history: RunHistory;
  /** How this run's states and agents are said; without it, their names in words. */
  plain?: PlainNames;
  /** Who acts for the flow itself in its lines (an API ask: the key that asked). */
  workflow: string;
  /** The workflow's name for people ("Expense review"). */
  workflowLabel: string;
  model: RunModel;
}) {
  const { entries, older, latest, invalidCursor } = history;
  return (
    <section className="card-plain" aria-label="Run events" id="run-events">
      <h2>What happened</h2>
      {invalidCursor ? (
        <p role="status" className="notice" data-testid="run-events-cursor-invalid">
          That link to older events is not one this page makes, so here are the latest.
        </p>
      ) : null}
      {older || !latest ? (
        <nav className="inbox-meta run-events-pages" aria-label="Older events">
          <span>{latest ? "The latest events" : "Earlier events"}</span>
          {older ? (
            <Link href={runEventsHref(taskId, older.before)} data-testid="older-events">
              Show {older.count} older {older.count === 1 ? "event" : "events"}
            </Link>
          ) : (
            <span>The run began here.</span>
          )}
        </nav>
      ) : null}
      {entries.length === 0 ? (
        <p className="muted">{latest ? "Nothing has happened yet." : "There are no events before that one."}</p>
      ) : (
        <ol className="run-events" data-testid="run-events">
          {entries.map((entry) => (
            <li key={entry.id} className={`run-entry ${entry.kind}`} data-testid="run-entry" data-kind={entry.kind}>
              <LocalTime at={entry.at.toISOString()} format="clock" />
              <div className="run-entry-body">
                <Entry entry={entry} workflow={workflow} workflowLabel={workflowLabel} model={model} plain={plain} />
              </div>
            </li>
          ))}
        </ol>
      )}
      {latest ? null : (
        <nav className="inbox-meta run-events-pages" aria-label="Newer events">
          <span>Newer events follow.</span>
          <Link href={runEventsHref(taskId)} data-testid="latest-events">
            Back to the latest events
          </Link>
        </nav>
      )}
    </section>
  );
}
