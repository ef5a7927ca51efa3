import { randomUUID } from "node:crypto";
import { stateWords } from "@/lib/plain-words";
import type { Metadata } from "next";
import Link from "next/link";
import { getAppRuntime } from "@/lib/app-runtime";
import { ApiAsk } from "@/lib/asks/api-ask-workflow";
import { getDb } from "@/lib/database";
import { loadRuns, RUN_STATES, RUNS_PAGE_SIZE, startableWorkflows, startFormOf } from "@/lib/runs";
import { RUN_STATE_WORDS, runCountWords, runStateWords } from "@/lib/run-view";
import { formatDuration } from "@/lib/sla-clock";
import { hasAnyRole, RUN_WATCHERS } from "@/lib/auth/roles";
import { requirePageUser } from "@/lib/server/session";
import { runAgainAction, startRunAction } from "./actions";
import { RunAgainForm } from "./run-again-form";
import { StartRunForm } from "./start-run-form";

export const metadata: Metadata = { title: "Runs" };


type SearchParams = Record<string, string | string[] | undefined>;

function one(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A link to this page with these filters (the ones left undefined are dropped). `asks: "hidden"` leaves out asks made over the API. */
function runsHref(params: { workflow?: string; asks?: string; state?: string; start?: string; after?: string }): string {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
  const text = query.toString();
  return text ? `/runs?${text}` : "/runs";
}

export default async function RunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requirePageUser(RUN_WATCHERS);
  const params = await searchParams;
  const { registry } = await getAppRuntime();
  const workflow = registry.entry(one(params.workflow) ?? "")?.workflow.name;
  // Asks agents made over the API may be many: "All but API asks" leaves them out (only with no workflow chosen).
  const asksShown = registry.entry(ApiAsk.name) !== undefined;
  const asks = !workflow && asksShown && one(params.asks) === "hidden" ? "hidden" : undefined;
  const state = RUN_STATES.find((each) => each === one(params.state));
  const db = await getDb();
  const startable = startableWorkflows(registry, user);
  // The form shown: the one asked for, else the only one there is.
  const starting = startable.find((entry) => entry.workflow.name === one(params.start)) ?? (startable.length === 1 ? startable[0] : undefined);
  const after = one(params.after);
  const [{ rows, counts, total, next }, form] = await Promise.all([loadRuns(db, registry, { workflow, state, after, withoutApiAsks: asks === "hidden" }), starting ? startFormOf(db, starting) : undefined]);
  const shown = runCountWords(state ? counts[state] : total);
  const now = new Date();
  // Admins watch runs; only someone a workflow lets start one sees a start form (operators are told why they cannot).
  const showStart = startable.length > 0 || user.roles.includes("operator");
  // "Review again" and the like, in the rows of workflows that let this person start them again.
  const mayRunAgain = (name: string) => {
    const again = registry.entry(name)?.again;
    return again !== undefined && hasAnyRole(user.roles, again.roles ?? ["operator"]);
  };
  return (
    <section>
      <h1>Runs</h1>
      {showStart ? (
        <section className="card-plain" aria-labelledby="start-heading">
          <h2 id="start-heading">{starting ? `Start: ${starting.label}` : "Start a run"}</h2>
          {startable.length === 0 ? (
            <p className="muted">
              {registry.entries.length === 0
                ? "No workflows are registered yet: add one to parley.config.ts (see the README's “Add your own workflow”)."
                : "None of the registered workflows is started from a form by your role."}
            </p>
          ) : null}
          {startable.length > 1 ? (
            <nav aria-label="Workflows you can start">
              <ul className="start-list">
                {startable.map((entry) => (
                  <li key={entry.workflow.name}>
                    <Link href={runsHref({ workflow, asks, state, start: entry.workflow.name })} aria-current={entry === starting ? "page" : undefined}>
                      {entry.label}
                    </Link>
                    {entry.description ? <span className="muted"> — {entry.description}</span> : null}
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {starting && form ? (
            <>
              {startable.length === 1 && starting.description ? <p className="muted">{starting.description}</p> : null}
              <StartRunForm workflow={starting.workflow.name} startToken={randomUUID()} spec={form.spec} submitLabel={form.submitLabel} action={startRunAction} />
            </>
          ) : null}
        </section>
      ) : null}
      {registry.entries.length > 1 ? (
        <nav className="tabs" aria-label="Filter by workflow">
          <Link href={runsHref({ state })} aria-current={workflow || asks ? undefined : "page"}>
            All workflows
          </Link>
          {asksShown ? (
            <Link href={runsHref({ asks: "hidden", state })} aria-current={asks ? "page" : undefined} data-testid="workflow-all-but-api-asks">
              All but API asks
            </Link>
          ) : null}
          {registry.entries.map((entry) => (
            <Link key={entry.workflow.name} href={runsHref({ workflow: entry.workflow.name, state })} aria-current={workflow === entry.workflow.name ? "page" : undefined} data-testid={`workflow-${entry.workflow.name}`}>
              {entry.label}
            </Link>
          ))}
        </nav>
      ) : null}
      <nav className="tabs" aria-label="Filter by state">
        <Link href={runsHref({ workflow, asks })} aria-current={state ? undefined : "page"}>
          All <span className="count">{runCountWords(total)}</span>
        </Link>
        {RUN_STATES.map((each) => (
          <Link key={each} href={runsHref({ workflow, asks, state: each })} aria-current={state === each ? "page" : undefined} data-testid={`filter-${each}`}>
            {RUN_STATE_WORDS[each]} <span className="count">{runCountWords(counts[each])}</span>
          </Link>
        ))}
      </nav>
      {rows.length === 0 ? (
        <div className="empty-state">
          <h2>{after ? "No older runs" : state ? `No runs: ${RUN_STATE_WORDS[state]}` : "No runs yet"}</h2>
          <p>Runs you start, and where each one stands, appear here with who they are waiting on.</p>
        </div>
      ) : (
        <table className="table stacks" aria-label="Runs">
          <thead>
            <tr>
              <th>Run</th>
              <th>Workflow</th>
              <th>State</th>
              <th>Waiting on</th>
              <th>Started by</th>
              <th>Age</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((run) => {
              const title = run.subject?.title ?? `${run.workflowLabel} run`;
              return (
                <tr key={run.taskId} data-testid="run-row">
                  <td>
                    <Link href={`/tasks/${run.taskId}`}>{title}</Link>
                    {run.subject?.summary ? <div className="muted">{run.subject.summary}</div> : null}
                  </td>
                  <td data-label="Workflow">{run.workflowLabel}</td>
                  <td data-label="State">
                    {/* The same words as the tabs above and the run page (lib/run-view). */}
                    <span className={`badge status-${run.runState}`}>{runStateWords(run).label}</span>
                    {runStateWords(run).note ? <div className="muted">{runStateWords(run).note}</div> : null}
                    {/* The workflow's own state, where it says more than the badge. */}
                    {stateWords(registry, run.workflow, run.state) !== runStateWords(run).label ? <div className="muted">{stateWords(registry, run.workflow, run.state)}</div> : null}
                  </td>
                  <td data-label="Waiting on">{run.waitingOn ?? <span className="muted">—</span>}</td>
                  <td data-label="Started by">
                    {run.startedByName ?? (run.subject?.askedBy ? <span title="An agent key, over the API or MCP">the key “{run.subject.askedBy}”</span> : <span className="muted">—</span>)}
                  </td>
                  <td data-label="Age">{formatDuration(now.getTime() - run.startedAt.getTime())}</td>
                  <td>{run.againLabel && mayRunAgain(run.workflow) ? <RunAgainForm taskId={run.taskId} label={run.againLabel} subject={title} action={runAgainAction} /> : null}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {after || next ? (
        <nav className="inbox-meta" aria-label="Pages">
          <span>
            {after ? `${rows.length} older of ${shown}` : `The ${rows.length} newest of ${shown}`}
            {after ? (
              <>
                {" · "}
                <Link href={runsHref({ workflow, asks, state })}>back to the newest</Link>
              </>
            ) : null}
          </span>
          {next ? <Link href={runsHref({ workflow, asks, state, after: next })}>Older {RUNS_PAGE_SIZE} →</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
