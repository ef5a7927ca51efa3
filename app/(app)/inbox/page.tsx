import type { Metadata } from "next";
import { cookies } from "next/headers";
import Link from "next/link";
import { DensitySwitch } from "@/components/density-switch";
import { DENSITY_COOKIE, densityFrom } from "@/lib/density";
import { SlaClock } from "@/components/sla-clock";
import { getDb } from "@/lib/database";
import { getRegistry } from "@/lib/registry/configured";
import { nothingReasonWords } from "@/lib/question-view";
import {
  ANSWERED_FOUND,
  INBOX_DUE_FILTERS,
  INBOX_DUE_LABELS,
  INBOX_PAGE_SIZE,
  INBOX_SORT_LABELS,
  INBOX_SORTS,
  INBOX_VIEW_LABELS,
  type Inbox,
  inboxCountWords,
  type InboxView,
  loadInbox,
  lookAtInbox,
  isListView,
  parseInboxView,
} from "@/lib/inbox";
import { formatDuration } from "@/lib/sla-clock";
import { requirePageUser } from "@/lib/server/session";
import { LISTED_TEXT_LENGTH, shorten } from "@/lib/short-text";
import { DocumentTitle } from "@/components/document-title";
import { CurrentTabInView } from "@/components/current-tab-in-view";
import { InboxKeys } from "@/components/inbox-keys";
import { LocalTime } from "@/components/local-time";
import { SnoozedList, WakeButton } from "@/components/snoozed-list";
import { snoozeOf } from "@/lib/snoozes";
import { setDensityAction } from "../actions";
import { wakeQuestionAction } from "../questions/[id]/actions";

export const metadata: Metadata = { title: "Inbox" };

const VIEWS: { view: InboxView; label: string; about: string; empty: string }[] = [
  {
    view: "assigned",
    label: INBOX_VIEW_LABELS.assigned,
    about: "Questions put to you, and the ones you took from your team or from others they were put to.",
    empty: "When an agent or a flow needs something only you can settle, its question appears here with its deadline.",
  },
  {
    view: "candidates",
    label: INBOX_VIEW_LABELS.candidates,
    about: "Questions put to you and other people by name: whoever answers first settles it, or take one to make it yours.",
    empty: "Questions open to you and others appear here; whoever answers first takes them.",
  },
  {
    view: "team",
    label: INBOX_VIEW_LABELS.team,
    about: "Questions put to a team you are in: take one and the others see you have it.",
    empty: "Questions put to a team you are in appear here; take one and the others see you have it.",
  },
  { view: "overdue", label: INBOX_VIEW_LABELS.overdue, about: "Everything waiting on you that is past its deadline.", empty: "Nothing is past its deadline." },
  {
    view: "snoozed",
    label: INBOX_VIEW_LABELS.snoozed,
    about: "Questions you put out of sight for a while: each comes back to its view by itself. Their deadlines have not moved.",
    empty: "Nothing is snoozed. Snooze a question from its page to put it out of your inbox for a while.",
  },
  { view: "answered", label: INBOX_VIEW_LABELS.answered, about: "What you answered, newest first, with how long each waited for you.", empty: "Questions you have answered appear here, with how long they waited for you." },
];

/** A link to a view of the inbox keeping what is looked for and the order (the defaults left out), from `after` when given. */
function inboxHref(view: InboxView, search: Inbox["search"], after?: string): string {
  const query = new URLSearchParams({ view });
  if (search.text) query.set("q", search.text);
  if (search.asker) query.set("asker", search.asker);
  if (search.due) query.set("due", search.due);
  if (search.sort !== "due") query.set("sort", search.sort);
  if (after) query.set("after", after);
  return `/inbox?${query.toString()}`;
}

/** How the first page of a view is described, by its order. */
const FIRST_PAGE_WORDS: Record<Inbox["search"]["sort"], string> = { due: "due soonest", newest: "newest", oldest: "oldest" };

export default async function InboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser(["assignee"]);
  const density = densityFrom((await cookies()).get(DENSITY_COOKIE)?.value);
  const params = await searchParams;
  const view = parseInboxView(params.view);
  const now = new Date();
  const db = await getDb();
  // Looking at the inbox is what "new" is measured from: what was put to them since the last look.
  const seenBefore = await lookAtInbox(db, user.id, now);
  const registry = getRegistry();
  const inbox = await loadInbox(db, user.id, view, now, {
    registry,
    after: typeof params.after === "string" ? params.after : null,
    seenBefore,
    search: { text: params.q, asker: params.asker, due: params.due, sort: params.sort },
  });
  // Back from snoozing a question: said once, with the moment it comes back (read from the database, not the link).
  const snoozedId = typeof params.snoozed === "string" ? params.snoozed : null;
  const snoozedTill = snoozedId ? await snoozeOf(db, snoozedId, user.id, now) : null;
  const justSnoozed = snoozedId && snoozedTill ? { id: snoozedId, until: snoozedTill } : null;
  const searching = inbox.search.text !== null || inbox.search.asker !== null || inbox.search.due !== null;
  // The tab says how many questions wait on this person (each once, whichever views it is in); "+" when a view has more than were counted.
  const waiting = inbox.counts.assigned + inbox.counts.candidates + inbox.counts.team;
  const waitingWords = inboxCountWords(waiting, inbox.countsAtLeast.assigned || inbox.countsAtLeast.candidates || inbox.countsAtLeast.team);
  const viewCount = inboxCountWords(inbox.counts[view], inbox.countsAtLeast[view]);
  const shownOf = searching ? inboxCountWords(inbox.matching, inbox.matchingAtLeast) : viewCount;
  // Links keep the search and the order: paging through what was found, in the order chosen.
  const current = VIEWS.find((entry) => entry.view === view)!;
  const renderedAt = now.toISOString();

  return (
    <section>
      <h1>Inbox</h1>
      {justSnoozed ? (
        <div className="notice snoozed-notice" role="status" data-testid="just-snoozed">
          <span>
            Snoozed: the question is out of your inbox until <LocalTime at={justSnoozed.until.toISOString()} />, then back in its view. Its deadline has not moved.
          </span>
          <WakeButton questionId={justSnoozed.id} action={wakeQuestionAction} label="Undo" />
        </div>
      ) : null}
      {user.away ? (
        <p className="notice" role="status">
          You are marked away: you get no new questions until you switch it off. They go to whoever you named on your <Link href="/profile">profile</Link>; with
          nobody named, askers are told at once that you are away.
        </p>
      ) : null}
      <DocumentTitle title={waiting > 0 ? `Inbox (${waitingWords}) · Parley` : "Inbox · Parley"} />
      <InboxKeys />
      <CurrentTabInView current={inbox.everywhere ? "everywhere" : view} />
      <nav className="tabs" aria-label="Inbox views">
        {VIEWS.map((entry) => (
          <Link key={entry.view} href={`/inbox?view=${entry.view}`} aria-current={entry.view === view && !inbox.everywhere ? "page" : undefined}>
            {entry.label} <span className="count">{inboxCountWords(inbox.counts[entry.view], inbox.countsAtLeast[entry.view])}</span>
          </Link>
        ))}
      </nav>
      <p className="muted view-about">
        {inbox.everywhere ? "Words are looked for in every view: each question you may answer, what you snoozed, and what you answered." : current.about}
      </p>
      <form className="inbox-search" role="search" action="/inbox" method="get" aria-label="Find a question">
        <input type="hidden" name="view" value={view} />
        <label>
          <span>Words, in any view</span>
          <input type="search" name="q" defaultValue={inbox.search.text ?? ""} maxLength={200} aria-keyshortcuts="/" data-search-box />
        </label>
        {isListView(view) ? null : (
          <>
            <label>
              <span>Asked by</span>
              <select name="asker" defaultValue={inbox.search.asker ?? ""}>
                <option value="">Anyone</option>
                {inbox.askers.map((asker) => (
                  <option key={asker} value={asker}>
                    {registry.entry(asker)?.label ?? asker}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>Due</span>
              <select name="due" defaultValue={inbox.search.due ?? ""}>
                <option value="">Any time</option>
                {INBOX_DUE_FILTERS.map((due) => (
                  <option key={due} value={due}>
                    {INBOX_DUE_LABELS[due]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>Order</span>
              <select name="sort" defaultValue={inbox.search.sort}>
                {INBOX_SORTS.map((sort) => (
                  <option key={sort} value={sort}>
                    {INBOX_SORT_LABELS[sort]}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
        <button type="submit">Find</button>
        {inbox.notUnderstood.length > 0 ? (
          <p className="notice small" role="status" data-testid="not-understood">
            {inbox.notUnderstood.join(" ")}
          </p>
        ) : null}
        {inbox.everywhere ? (
          <p className="muted small" role="status">
            {shownOf} open {inbox.matching === 1 && !inbox.matchingAtLeast ? "question" : "questions"}
            {inbox.snoozed.length > 0 ? `, ${inbox.snoozed.length} snoozed` : ""} and {inbox.answered.length === ANSWERED_FOUND ? `the newest ${ANSWERED_FOUND}` : inbox.answered.length}{" "}
            answered found, in every view · <Link href={`/inbox?view=${view}`}>show {current.label}</Link>
          </p>
        ) : searching ? (
          <p className="muted small" role="status">
            {shownOf} of {viewCount} {inbox.counts[view] === 1 && !inbox.countsAtLeast[view] ? "question" : "questions"} found · <Link href={`/inbox?view=${view}`}>show all</Link>
          </p>
        ) : (
          <p className="muted small keys-hint">
            Keys: <kbd>j</kbd> and <kbd>k</kbd> move between questions, <kbd>Enter</kbd> opens one, <kbd>/</kbd> searches, <kbd>?</kbd> shows every key.
          </p>
        )}
      </form>
      <DensitySwitch density={density} action={setDensityAction} />
      {view === "answered" && !inbox.everywhere ? (
        inbox.answered.length === 0 ? <Empty text={current.empty} /> : <AnsweredList rows={inbox.answered} label={current.label} />
      ) : view === "snoozed" && !inbox.everywhere ? (
        inbox.snoozed.length === 0 ? <Empty text={current.empty} /> : (
          <SnoozedList
            rows={snoozedRows(inbox.snoozed)}
            label={current.label}
            renderedAt={renderedAt}
            wakeAction={wakeQuestionAction}
          />
        )
      ) : inbox.rows.length === 0 ? (
        <Empty
          text={
            inbox.everywhere
              ? inbox.answered.length === 0 && inbox.snoozed.length === 0
                ? "Nothing you may answer or have answered matches what you looked for."
                : `No question in your inbox has these words; what you ${inbox.snoozed.length === 0 ? "answered" : inbox.answered.length === 0 ? "snoozed" : "snoozed or answered"} with them is below.`
              : searching
                ? "No question in this view matches what you looked for."
                : current.empty
          }
        />
      ) : (
        <ul className="inbox-list open" aria-label={inbox.everywhere ? "Open questions found" : current.label}>
          {inbox.rows.map((row) => (
            <li key={row.id} className="inbox-row" data-testid="inbox-row">
              <div className="inbox-title">
                {inbox.everywhere ? (
                  <>
                    <span className="badge view" data-testid="found-in-view">
                      {VIEWS.find((entry) => entry.view === row.view)!.label}
                    </span>{" "}
                  </>
                ) : null}
                {row.isNew ? (
                  <>
                    <span className="badge amber" data-testid="new-question">
                      New
                    </span>{" "}
                  </>
                ) : null}
                <Link href={`/questions/${row.id}`} className="inbox-question" data-inbox-link>
                  {shorten(row.headline, LISTED_TEXT_LENGTH)}
                </Link>
              </div>
              <div className="inbox-meta">
                <span className="inbox-asker">
                  {row.asker.kind === "api" ? (
                    <>
                      <strong>{row.asker.label}</strong> asks over the API
                    </>
                  ) : (
                    <>
                      {row.asker.kind === "agent" ? "The agent " : null}
                      <strong>{row.asker.label}</strong> asks about {row.subject?.title ?? "a task"}
                      {row.subject?.summary ? <span className="muted"> ({row.subject.summary})</span> : null}
                    </>
                  )}
                </span>
                {row.claimedBy ? <span>{row.claimedBy.id === user.id ? "You took it" : `${row.claimedBy.name} took it`}</span> : null}
                {row.delegatedFrom ? <span>For {row.delegatedFrom}, who is away: delegated to you</span> : null}
                <span>
                  waiting {formatDuration(now.getTime() - row.openedAt.getTime())} · <SlaClock openedAt={row.openedAt.toISOString()} dueAt={row.dueAt?.toISOString() ?? null} renderedAt={renderedAt} />
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {(!isListView(view) || inbox.everywhere) && (inbox.after || inbox.next) ? (
        <nav className="inbox-meta" aria-label="Pages">
          <span>
            {inbox.after
              ? `${inbox.rows.length} more of ${shownOf}`
              : `The ${inbox.rows.length} ${FIRST_PAGE_WORDS[inbox.search.sort]} of ${shownOf}`}
            {inbox.after ? (
              <>
                {" · "}
                <Link href={inboxHref(view, inbox.search)}>back to the {FIRST_PAGE_WORDS[inbox.search.sort]}</Link>
              </>
            ) : null}
          </span>
          {inbox.next ? <Link href={inboxHref(view, inbox.search, inbox.next)}>Next {INBOX_PAGE_SIZE} →</Link> : null}
        </nav>
      ) : null}
      {inbox.everywhere && inbox.snoozed.length > 0 ? (
        <>
          <h2 className="found-answered">Snoozed by me</h2>
          <SnoozedList rows={snoozedRows(inbox.snoozed)} label="Snoozed questions found" renderedAt={renderedAt} wakeAction={wakeQuestionAction} />
        </>
      ) : null}
      {inbox.everywhere && inbox.answered.length > 0 ? (
        <>
          <h2 className="found-answered">Answered by me</h2>
          <AnsweredList rows={inbox.answered} label="Answered questions found" />
        </>
      ) : null}
    </section>
  );
}

/** The snoozed questions as the Snoozed list shows them. */
function snoozedRows(snoozed: Inbox["snoozed"]) {
  return snoozed.map((row) => ({
    id: row.id,
    headline: shorten(row.headline, LISTED_TEXT_LENGTH),
    askedBy: row.asker.label,
    about: row.subject?.title ?? null,
    openedAt: row.openedAt.toISOString(),
    dueAt: row.dueAt?.toISOString() ?? null,
    until: row.until.toISOString(),
  }));
}

/** What the person answered (or that closed while it was theirs), newest first, with what they answered. */
function AnsweredList({ rows, label }: { rows: Inbox["answered"]; label: string }) {
  return (
    <ul className="inbox-list" aria-label={label}>
      {rows.map((row) => (
        <li key={row.id} className="inbox-row">
          <div className="inbox-title">
            <Link href={`/questions/${row.id}`} className="inbox-question" data-inbox-link>
              {shorten(row.title ?? row.question, LISTED_TEXT_LENGTH)}
            </Link>
          </div>
          {row.answerLine ? (
            <p className="inbox-answer">
              <span className="muted">You answered:</span> {shorten(row.answerLine, LISTED_TEXT_LENGTH)}
            </p>
          ) : null}
          <div className="inbox-meta">
            <span className="inbox-asker">
              {row.asker.label} · {row.subject?.title ?? "a task"}
            </span>
            <span>
              {row.status === "answered" ? "answered" : `closed without an answer: ${nothingReasonWords(row.reason, "it is no longer open")}`}
              {row.waitMs !== null ? ` after waiting ${formatDuration(row.waitMs)}` : ""}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}

function Empty({ text }: { text: string }) {
  return (
    <div className="empty-state">
      <h2>Nothing here</h2>
      <p>{text}</p>
    </div>
  );
}
