import type { Metadata } from "next";
import { agentWords, stateWords } from "@/lib/plain-words";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getAppRuntime } from "@/lib/app-runtime";
import { hasAnyRole, RUN_WATCHERS } from "@/lib/auth/roles";
import { getDb } from "@/lib/database";
import { runStateWords } from "@/lib/run-view";
import { definitionFailureMessage } from "@/lib/runtime/definition-errors";
import { loadHandoffGraph, loadRunEnding, loadRunHistory } from "@/lib/run-history";
import { loadRunPage } from "@/lib/runs";
import { runDefinitionNotice } from "@/lib/workflow-changes";
import { formatDuration } from "@/lib/sla-clock";
import { requirePageUser } from "@/lib/server/session";
import { cancelRunAction, retryRunAction } from "./actions";
import { CancelRunForm } from "./cancel-run-form";
import { runAgainAction } from "../../runs/actions";
import { RunAgainForm } from "../../runs/run-again-form";
import { HandoffGraphView } from "./handoff-graph";
import { RetryForm } from "./retry-form";
import { RunEvents } from "./run-events";
import { ContextFacts } from "@/components/context-facts";
import { isUuid } from "@/lib/ids";

export const metadata: Metadata = { title: "Run" };

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ before?: string | string[]; started?: string | string[] }>;
}) {
  const user = await requirePageUser(RUN_WATCHERS);
  const [{ id }, { before, started }] = await Promise.all([params, searchParams]);
  if (!isUuid(id)) notFound();
  const db = await getDb();
  const { registry, model } = await getAppRuntime();
  const page = await loadRunPage(db, registry, id);
  if (!page) notFound();
  const { run, subject, context } = page;
  // A page of the run's events (never all of them), how it stopped, and who handed to whom, counted by the database.
  // …and whether a deploy changed its workflow, since the definition that parked it, in a way that breaks it.
  const [history, ending, graph, changed] = await Promise.all([
    loadRunHistory(db, id, { before }),
    loadRunEnding(db, id, run.status),
    loadHandoffGraph(db, id),
    runDefinitionNotice(db, registry, id),
  ]);
  const workflow = run.workflow;
  const runState = runStateWords(run);
  const lastFailure = ending.failure;
  const stoppedByDefinition = ending.definitionFailure;
  const cancelledBy = ending.cancelled;
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
          {page.workflowLabel} · started by {page.startedByName ?? (subject?.askedBy ? `the key “${subject.askedBy}”` : "the system")} {formatDuration(now.getTime() - run.startedAt.getTime())} ago
        </p>
        <h1>{subject?.title ?? `${page.workflowLabel} run`}</h1>
        {started === "new" || started === "again" ? (
          <p role="status" className={started === "new" ? "answer-taken" : "notice"} data-testid="started">
            {started === "new"
              ? `Started “${subject?.title ?? page.workflowLabel}”: this is its run, and it goes on while you watch or leave.`
              : `That form had already started “${subject?.title ?? page.workflowLabel}”, so nothing more was started: this is the run it started.`}
          </p>
        ) : null}
        {subject?.summary ? <p className="muted">{subject.summary}</p> : null}
        <p className="run-status" data-testid="run-status">
          <span className={`badge status-${run.runState}`}>{runState.label}</span>
          {runState.note ? <span className="muted"> ({runState.note})</span> : null}
          {/* The workflow's own state, where it says more than the badge. */}
          {stateWords(registry, workflow, run.state) !== runState.label ? (
            <>
              {" "}
              in state <strong>{stateWords(registry, workflow, run.state)}</strong>
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

      {changed ? (
        <section className="card-plain run-failure" aria-label="Workflow changed" data-testid="definition-changed">
          <p>
            <strong>{changed.workflowLabel} has changed</strong> since this run last moved on (by its definition {changed.definition}), in a way that affects it:
          </p>
          <ul>
            {changed.changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
          <p>{changed.effects.join(" ")}</p>
          <p className="muted">
            The run can be cancelled below; or whoever deploys Parley can keep the earlier definition running beside the new one until runs like this end
            (see docs/workflow-changes.md).
          </p>
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
        <RunEvents
          taskId={id}
          history={history}
          plain={{ state: (state) => stateWords(registry, workflow, state), agent: agentWords }}
          workflow={subject?.askedBy ? `The key “${subject.askedBy}”` : page.workflowLabel} workflowLabel={page.workflowLabel} model={{ kind: model.kind, endpoint: model.endpoint }} />

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
