import type { Metadata } from "next";
import { BulkWaitsForm } from "@/components/bulk-waits-form";
import { agentWords, stateWords } from "@/lib/plain-words";
import Link from "next/link";
import { LocalTime } from "@/components/local-time";
import { When } from "@/components/when";
import { SlaClock } from "@/components/sla-clock";
import { getDb } from "@/lib/database";
import { listPeople } from "@/lib/people";
import { formatDuration, formatUtc, readClock } from "@/lib/sla-clock";
import { type LongWaitRow, openWorkByAgeFor, slaHistoryFor, type SlaNumbers } from "@/lib/sla-history";
import { type EscalationView, type OpenSlotRow, readOutstandingWork, resolveAssigneeFilter } from "@/lib/sla-outstanding";
import { formatPercentile, formatShare, OPEN_AGE_BUCKETS, parseSlaPeriod, SLA_PERIOD_LABELS, SLA_PERIODS, type SlaPeriod, TIME_TO_ANSWER_BUCKETS } from "@/lib/sla-numbers";
import { requirePageUser } from "@/lib/server/session";
import { bulkWaitsAction, findPeopleToReassignToAction, reassignSlotAction, remindAction } from "../actions";
import { BarChart } from "./bar-chart";
import { NumbersTable } from "./numbers-table";
import { SlotActions } from "./slot-actions";
import { isUuid } from "@/lib/ids";
import { getRegistry } from "@/lib/registry/configured";
import { LISTED_TEXT_LENGTH, shorten } from "@/lib/short-text";
import { NOTHING_REASON_LABELS, nothingReasonWords } from "@/lib/question-view";

/** The id of the bulk actions' form, which the table's checkboxes belong to. */
const BULK_FORM = "bulk-waits";

export const metadata: Metadata = { title: "SLA" };

type SearchParams = Record<string, string | string[] | undefined>;

const BANDS = ["at-risk", "breached"] as const;
type BandFilter = (typeof BANDS)[number];

function single(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() || undefined;
}

/**
 * How many open waits the outstanding-work table lists at a time: each row is about 4.5 KB of the
 * page (its markup and the data React hydrates it from); fifty made the page 290 KB, and 25 kept it
 * at 198–205 KB at benchmark 3's size, on the 200 KB limit.
 */
const OPEN_PAGE_SIZE = 20;
/**
 * How many people the SLA numbers by person list at a time, most breaches first (`?people=2` is the
 * next 25): a thousand people's rows made the page close to a megabyte. The CSV export has them all.
 */
const PEOPLE_PAGE_SIZE = 25;

/** Which page of people (1 when absent, unknown, or the `all` of older links). */
function peoplePageOf(value: string | undefined): number {
  const page = value && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return Math.max(1, page);
}

function waitingOn(slot: Pick<OpenSlotRow, "assigneeName" | "candidateCount" | "teams" | "claimedByName">): string {
  if (slot.assigneeName) return slot.assigneeName;
  if (slot.claimedByName) return `${slot.claimedByName} (took it)`;
  return candidatesWords(slot);
}

/** Whom a wait without an assignee was for: its candidates and its teams. */
function candidatesWords(slot: { candidateCount: number; teams: readonly string[] }): string {
  const teams = slot.teams.length === 0 ? "" : `the team${slot.teams.length === 1 ? "" : "s"} ${slot.teams.join(", ")}`;
  if (slot.candidateCount === 0 && teams) return teams;
  const people = slot.candidateCount === 1 ? "its one candidate" : `any of ${slot.candidateCount} candidates`;
  return teams ? `${people} or ${teams}` : people;
}

/** A wait's escalation chain in a line that fits a phone: "Escalated: reminded at 50 % · next: +finance at 80 % (in 2h)". */
function Escalation({ escalation, now }: { escalation: EscalationView; now: Date }) {
  const { fired, next } = escalation;
  return (
    <div className="muted small" data-testid="escalation">
      {fired.length > 0 ? <span>Escalated: {fired.map((step) => `${step.label === "remind" ? "reminded" : step.label} at ${step.percent} %`).join(", ")}</span> : null}
      {fired.length > 0 && next ? " · " : null}
      {next ? (
        <span title={next.dueAt.toISOString()}>
          next: {next.label} at {next.percent} %{next.dueAt > now ? ` (in ${formatDuration(next.dueAt.getTime() - now.getTime())})` : " (due now)"}
        </span>
      ) : null}
    </div>
  );
}

function questionLabel(row: { headline: string | null; workflow: string }): string {
  return shorten(row.headline?.trim() || `${row.workflow} wait`, LISTED_TEXT_LENGTH);
}

/** "“Why was dinner €480?” waited 15h for Sam Rivera". */
function longWaitSentence(row: LongWaitRow) {
  const whom = row.personName ?? candidatesWords(row);
  return (
    <>
      {row.questionId ? <Link href={`/questions/${row.questionId}`}>{questionLabel(row)}</Link> : questionLabel(row)} waited{" "}
      <strong>{formatDuration(row.waitMs)}</strong> for <strong>{whom}</strong>
      {row.status === "expired" ? <span className="badge status-failed">expired unanswered</span> : null}
    </>
  );
}

function Summary({ numbers }: { numbers: SlaNumbers }) {
  const tiles = [
    { label: "Answered within SLA", value: formatShare(numbers.withinSla, numbers.total), detail: numbers.total === 0 ? "nothing finished yet" : `${numbers.withinSla} of ${numbers.total}` },
    { label: "Breaches", value: String(numbers.breaches), detail: "expired or answered late" },
    { label: "Time to answer p50", value: formatPercentile(numbers.p50), detail: numbers.answered === 0 ? "nothing answered yet" : `over ${numbers.answered} answered` },
    { label: "p90", value: formatPercentile(numbers.p90), detail: "" },
    { label: "p95", value: formatPercentile(numbers.p95), detail: "" },
  ];
  return (
    <dl className="sla-summary">
      {tiles.map((tile) => (
        <div key={tile.label} data-testid={`sla-${tile.label.toLowerCase().replaceAll(" ", "-")}`}>
          <dt>{tile.label}</dt>
          <dd>
            {tile.value}
            {tile.detail ? <span className="muted">{tile.detail}</span> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function hrefWith(params: Record<string, string | undefined>, change: Record<string, string | undefined>): string {
  const merged = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...params, ...change })) if (value) merged.set(key, value);
  const query = merged.toString();
  return query ? `/admin/sla?${query}` : "/admin/sla";
}

export default async function AdminSlaPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePageUser(["admin"]);
  const params = await searchParams;
  const now = new Date();
  const workflow = single(params.workflow);
  const agent = single(params.agent);
  // Whose waits: typed (an email or part of a name), or an id from a link.
  const assigneeWords = single(params.assignee);
  const band = BANDS.find((candidate) => candidate === single(params.band)) as BandFilter | undefined;
  const period: SlaPeriod = parseSlaPeriod(single(params.period));
  const after = single(params.after);
  const reassigning = single(params.reassign);
  const db = await getDb();
  const filterPerson = await resolveAssigneeFilter(db, assigneeWords);
  // Words that name nobody (or several people) show no waits until one is chosen.
  const assigneeId = assigneeWords ? (filterPerson.chosen?.id ?? "00000000-0000-0000-0000-000000000000") : undefined;
  const assignee = assigneeWords ? (filterPerson.chosen?.id ?? assigneeWords) : undefined;

  const [{ page, choices }, people, history, openByAge] = await Promise.all([
    readOutstandingWork(
      db,
      { workflow, agent, assigneeId, breachedOnly: band === "breached", atRiskOnly: band === "at-risk" },
      now,
      { limit: OPEN_PAGE_SIZE + 1, after: after && isUuid(after) ? after : undefined },
    ),
    // Everyone, only for the row being reassigned: a list of a thousand people in the page would make it hundreds of KB.
    reassigning ? listPeople(db) : Promise.resolve([]),
    slaHistoryFor(db, period),
    openWorkByAgeFor(db),
  ]);
  const { report, longest, waits } = history;
  const open = page.slice(0, OPEN_PAGE_SIZE);
  const next = page.length > OPEN_PAGE_SIZE ? open.at(-1)!.id : undefined;
  // The bands come from the same clock the colours do, so "at risk" here is exactly what shows amber.
  const rows = band === "at-risk" ? open.filter((slot) => readClock(slot.openedAt, slot.dueAt, now).band === "at-risk") : open;
  const assignees = people.filter((person) => person.roles.includes("assignee")).map((person) => ({ id: person.id, name: person.name }));
  const peopleCount = history.report.byPerson.length;
  // A page past the last shows the last.
  const peoplePage = Math.min(peoplePageOf(single(params.people)), Math.max(1, Math.ceil(peopleCount / PEOPLE_PAGE_SIZE)));
  const current = { workflow, agent, assignee, band, period: period === "7d" ? undefined : period, people: peoplePage > 1 ? String(peoplePage) : undefined };
  const here = { ...current, after: after && isUuid(after) ? after : undefined };
  const renderedAt = now.toISOString();
  // Workflows by the names their registry gives them, and each wait's run by what it is about.
  const registry = getRegistry();
  const workflowLabel = (name: string) => registry.entry(name)?.label ?? name;
  const subjects = await registry.describeTasks(db, rows.map((slot) => slot.taskId));

  return (
    <section className="admin-sla">
      <p className="muted">
        <Link href="/admin">Admin</Link> / SLA
      </p>
      <h1>SLA clocks</h1>

      <h2>Outstanding work</h2>
      <form method="get" action="/admin/sla" className="sla-filters" aria-label="Filter outstanding work">
        {current.period ? <input type="hidden" name="period" value={current.period} /> : null}
        <label>
          Workflow
          <select name="workflow" defaultValue={workflow ?? ""}>
            <option value="">All</option>
            {choices.workflows.map((name) => (
              <option key={name} value={name}>
                {workflowLabel(name)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Agent
          <select name="agent" defaultValue={agent ?? ""}>
            <option value="">All</option>
            {choices.agents.map((name) => (
              <option key={name} value={name}>
                {agentWords(name)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Assignee
          <input type="search" name="assignee" defaultValue={filterPerson.chosen?.email ?? assigneeWords ?? ""} placeholder="Email or name" maxLength={200} />
        </label>
        <label>
          Clock
          <select name="band" defaultValue={band ?? ""}>
            <option value="">Any</option>
            <option value="at-risk">At risk</option>
            <option value="breached">Breached</option>
          </select>
        </label>
        <button type="submit" className="secondary">
          Filter
        </button>
        {workflow || agent || assignee || band ? <Link href={hrefWith({}, { period: current.period })}>Clear</Link> : null}
      </form>
      {assigneeWords && !filterPerson.chosen ? (
        <p className="notice small" role="status" data-testid="assignee-matches">
          {filterPerson.matches.length === 0 ? (
            <>Nobody’s email or name matches “{shorten(assigneeWords, 40)}”.</>
          ) : (
            <>
              Several people match “{shorten(assigneeWords, 40)}”:{" "}
              {filterPerson.matches.map((person, index) => (
                <span key={person.id}>
                  {index > 0 ? ", " : null}
                  <Link href={hrefWith(current, { assignee: person.id })}>
                    {person.name} ({person.email})
                  </Link>
                </span>
              ))}
              {filterPerson.matches.length >= 6 ? " and perhaps more: type more of the name or the email." : "."}
            </>
          )}
        </p>
      ) : null}

      {rows.length === 0 ? (
        <p className="empty muted">{open.length === 0 && !workflow && !agent && !assignee && !band ? "Nothing is waiting on anyone." : "No open wait matches these filters."}</p>
      ) : (
        <>
          <BulkWaitsForm action={bulkWaitsAction} findPeople={findPeopleToReassignToAction} formId={BULK_FORM} />
          <table className="table sla-open stacks" aria-label="Outstanding work">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Tick</span>
                </th>
                <th scope="col">Question</th>
                <th scope="col">Workflow · state</th>
                <th scope="col">Waiting on</th>
                <th scope="col">Opened</th>
                <th scope="col">Due</th>
                <th scope="col">Time left</th>
                <th scope="col">Act</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((slot) => (
                <tr key={slot.id} data-testid="open-slot" data-slot-id={slot.id}>
                  <td data-label="Tick">
                    <input type="checkbox" name="slotId" value={slot.id} form={BULK_FORM} aria-label={`Tick “${questionLabel(slot)}”`} />
                  </td>
                  <td>
                    {slot.questionId ? <Link href={`/questions/${slot.questionId}`}>{questionLabel(slot)}</Link> : questionLabel(slot)}
                    {slot.agent ? <div className="muted small">asked by {agentWords(slot.agent)}</div> : null}
                  </td>
                  <td data-label="Workflow · state">
                    {workflowLabel(slot.workflow)} · {stateWords(registry, slot.workflow, slot.state)}
                    <div className="muted small">
                      {/* What the run is about, unless it only repeats the question (an ask over the API is about its question). */}
                      {subjects.get(slot.taskId)?.title && subjects.get(slot.taskId)?.title !== slot.headline ? subjects.get(slot.taskId)?.title : null}{" "}
                      <Link href={`/tasks/${slot.taskId}`}>run</Link>
                    </div>
                  </td>
                  <td data-testid="waiting-on" data-label="Waiting on">{waitingOn(slot)}</td>
                  <td data-label="Opened">
                    <When at={slot.openedAt} now={now} />
                  </td>
                  <td data-label="Due">{slot.dueAt ? <When at={slot.dueAt} now={now} /> : <span className="muted">no deadline</span>}</td>
                  <td data-label="Time left">
                    <SlaClock openedAt={slot.openedAt.toISOString()} dueAt={slot.dueAt?.toISOString() ?? null} renderedAt={renderedAt} />
                    {slot.escalation ? <Escalation escalation={slot.escalation} now={now} /> : null}
                  </td>
                  <td>
                    <SlotActions
                      slotId={slot.id}
                      questionId={slot.questionId}
                      label={questionLabel(slot)}
                      assigneeId={slot.assigneeId}
                      assignees={slot.id === reassigning ? assignees : undefined}
                      reassignHref={hrefWith(here, { reassign: slot.id })}
                      reassign={reassignSlotAction}
                      remind={remindAction}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {here.after || next ? (
        <nav className="inbox-meta" aria-label="Pages of outstanding work">
          <span>{here.after ? <Link href={hrefWith(current, {})}>← Soonest due</Link> : `The ${open.length} due soonest`}</span>
          {next ? <Link href={hrefWith(current, { after: next })}>Next {OPEN_PAGE_SIZE} →</Link> : null}
        </nav>
      ) : null}

      <div className="sla-charts">
        <BarChart
          title="Open work by age"
          labels={OPEN_AGE_BUCKETS.labels}
          counts={openByAge.ages}
          unit={`open as of ${formatUtc(openByAge.readAt)}`}
        />
        <BarChart title={`Time to answer, ${SLA_PERIOD_LABELS[period].toLowerCase()}`} labels={TIME_TO_ANSWER_BUCKETS.labels} counts={waits} unit="answered" />
      </div>

      <h2>SLA numbers</h2>
      <p className="muted small" data-testid="sla-read-at">
        As of <LocalTime at={history.readAt.toISOString()} />: worked out from every finished wait at most once a minute.
      </p>
      <nav className="tabs" aria-label="Period">
        {SLA_PERIODS.map((choice) => (
          <Link key={choice} href={hrefWith(current, { period: choice === "7d" ? undefined : choice })} aria-current={choice === period ? "page" : undefined}>
            {SLA_PERIOD_LABELS[choice]}
          </Link>
        ))}
      </nav>
      <Summary numbers={report.overall} />

      <h3>Ended without an answer</h3>
      {history.unanswered.byReason.length === 0 ? (
        <p className="muted">Every wait that ended in this period was answered.</p>
      ) : (
        <>
          <dl className="sla-unanswered" aria-label="Ended without an answer, by reason">
            {history.unanswered.byReason.map((row) => (
              <div key={row.reason}>
                <dt>{NOTHING_REASON_LABELS[row.reason] ?? row.reason}</dt>
                <dd>{row.count}</dd>
              </div>
            ))}
          </dl>
          <ol className="long-waits" aria-label="Latest ended without an answer">
            {history.unanswered.latest.map((row) => (
              <li key={row.slotId}>
                {row.questionId ? <Link href={`/questions/${row.questionId}`}>{questionLabel(row)}</Link> : questionLabel(row)}
                {row.personName ? ` (for ${row.personName})` : ""}: {nothingReasonWords(row.reason, "it ended without an answer")}{" "}
                <span className="muted small">
                  · {workflowLabel(row.workflow)}, ended <When at={row.finishedAt} now={now} />
                </span>
              </li>
            ))}
          </ol>
        </>
      )}

      <h3>Longest waits</h3>
      {longest.length === 0 ? (
        <p className="muted">Nothing finished in this period.</p>
      ) : (
        <ol className="long-waits" aria-label="Longest waits">
          {longest.map((row) => (
            <li key={row.slotId}>
              {longWaitSentence(row)} <span className="muted small">· {workflowLabel(row.workflow)}, ended <When at={row.finishedAt} now={now} /></span>
            </li>
          ))}
        </ol>
      )}

      <div className="sla-tables">
        <NumbersTable caption="By workflow" nameHeader="Workflow" groups={report.byWorkflow.map((group) => (group.key ? { ...group, label: workflowLabel(group.key) } : group))} />
        <NumbersTable caption="By agent" nameHeader="Agent" groups={report.byAgent.map((group) => (group.key ? { ...group, label: agentWords(group.key) } : group))} />
        <NumbersTable caption="By team (each group a wait was put to)" nameHeader="Team" groups={report.byTeam} />
        <NumbersTable
          id="by-person"
          caption="By person (who answered, or whom an expired wait was for)"
          nameHeader="Person"
          groups={report.byPerson}
          page={{
            offset: (peoplePage - 1) * PEOPLE_PAGE_SIZE,
            size: PEOPLE_PAGE_SIZE,
            links: (
              <>
                {peoplePage > 1 ? <Link href={`${hrefWith(current, { people: peoplePage > 2 ? String(peoplePage - 1) : undefined })}#by-person`}>← Previous {PEOPLE_PAGE_SIZE}</Link> : null}
                {peoplePage * PEOPLE_PAGE_SIZE < peopleCount ? <Link href={`${hrefWith(current, { people: String(peoplePage + 1) })}#by-person`}>Next {PEOPLE_PAGE_SIZE} →</Link> : null}
              </>
            ),
          }}
        />
      </div>
      <p className="small">
        <a href={`/admin/sla/export${period === "7d" ? "" : `?period=${period}`}`} download>
          Download these numbers as CSV
        </a>{" "}
        <span className="muted">(the whole period, every workflow, agent and team, and {peopleCount === 1 ? "the 1 person" : `all ${peopleCount.toLocaleString("en-US")} people`})</span>
      </p>
    </section>
  );
}
