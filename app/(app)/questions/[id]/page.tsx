import type { Metadata } from "next";
import { LocalTime } from "@/components/local-time";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { Fragment } from "react";
import { ContextFacts } from "@/components/context-facts";
import { LiveRefresh } from "@/components/live-refresh";
import { SlaClock } from "@/components/sla-clock";
import { getDb } from "@/lib/database";
import { getAppRuntime } from "@/lib/app-runtime";
import { markQuestionSeen } from "@/lib/person-notifications";
import { askerOf, headlineOf } from "@/lib/inbox";
import { attemptLabel, describeAnswer } from "@/lib/questions";
import { closedWithoutAnswerText, conversationBeside, loadQuestionRun, reassignedAwayFrom, othersItIsFor, specToAnswer, whatComesNext } from "@/lib/question-view";
import { runStateWords } from "@/lib/run-view";
import { snoozeOf } from "@/lib/snoozes";
import { formatDuration } from "@/lib/sla-clock";
import { requireAnsweringPageUser } from "@/lib/server/session";
import { DECLINE_NOTE_MAX_LENGTH } from "@/lib/runtime";
import { claimQuestionAction, declineQuestionAction, snoozeQuestionAction, submitAnswerAction, wakeQuestionAction } from "./actions";
import { ClaimPanel } from "./claim-panel";
import { DeclinePanel } from "./decline-panel";
import { KeepGoing } from "./keep-going";
import { SnoozePanel } from "./snooze-panel";
import { AnswerForm } from "./answer-form";
import { isUuid } from "@/lib/ids";
import { LongText } from "@/components/long-text";

export const metadata: Metadata = { title: "Question" };

export default async function QuestionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // A session from an email's answer link may open this one question (and nothing else).
  const { user, limited } = await requireAnsweringPageUser(id);
  if (!isUuid(id)) notFound();
  const { runtime, registry } = await getAppRuntime();
  // Only for someone it was put to (or who answered it): anyone else gets the same 404 as a wrong id.
  const question = await runtime.questionFor(id, user.id);
  const db = await getDb();
  if (!question) {
    // Someone it was taken from by a reassignment is told who has it now, and nothing else about it.
    const moved = await reassignedAwayFrom(db, id, user.id);
    if (!moved) notFound();
    return (
      <article className="question-page">
        <p className="muted">
          <Link href="/inbox" data-key="u" data-key-label="Back to the inbox">
            ← Inbox
          </Link>
        </p>
        <h1>This question is no longer yours</h1>
        <p role="status" className="notice">
          It was reassigned to <strong>{moved.toName ?? "someone else"}</strong> on <LocalTime at={moved.at.toISOString()} />: they answer it now.
        </p>
      </article>
    );
  }

  // Opened — not merely prefetched by a link in view: the person's notifications about it are read (the bell counts down).
  const prefetch = (await headers()).has("next-router-prefetch");
  const [{ run, subject, context, conversation, gap }] = await Promise.all([loadQuestionRun(db, registry, question), prefetch ? 0 : markQuestionSeen(db, user.id, id)]);
  const asker = askerOf(question, subject, registry);
  const now = new Date();
  const runState = run ? runStateWords(run) : undefined;
  const headline = headlineOf(question);
  const slot = question.slot;
  const pastDue = Boolean(slot?.dueAt && slot.dueAt <= now);
  const open = question.status === "open" && slot?.status === "open" && !pastDue;
  const answeredAt = question.answeredAt ?? slot?.finishedAt ?? null;
  const answeredBy = question.answeredByName ?? slot?.finishedByName ?? null;
  const answeredByMe = (question.answeredBy ?? slot?.finishedBy) === user.id;
  const declinedByMe = question.reason === "declined" && question.declinedBy === user.id;
  // Everyone else it is put to: declining ends it for them too.
  const others = othersItIsFor(question, user.id);
  // What was answered, as its person would read it back (choices by their titles).
  const answered = describeAnswer(question.spec, question.answer);
  // Put to a team or to several people, with nobody assigned: one of them may take it.
  const claimable = Boolean(open && slot && !slot.assigneeId && (slot.candidateGroupIds.length > 0 || slot.candidateIds.length > 1));
  // Done with it (answered or declined by this person, in the full inbox): what the same run asks them next, and the rest of their inbox.
  const snoozedUntil = open && !limited ? await snoozeOf(db, question.id, user.id, now) : null;
  const after = !open && !limited && (answeredByMe || declinedByMe) ? await whatComesNext(db, runtime, user.id, question) : undefined;
  const holder = !slot?.claimedBy
    ? ({ kind: "nobody" } as const)
    : slot.claimedBy === user.id
      ? ({ kind: "me", since: slot.claimedAt?.toISOString() ?? null } as const)
      : ({ kind: "other", name: slot.claimedByName ?? "Another member", since: slot.claimedAt?.toISOString() ?? null } as const);

  return (
    <article className="question-page">
      {limited ? (
        <p className="muted limited-session" data-testid="limited-session">
          You opened this from an email link: you can answer this question only. <Link href={`/login?callbackUrl=${encodeURIComponent(`/questions/${question.id}`)}`}>Sign in</Link> for your inbox.
        </p>
      ) : (
        <>
          <LiveRefresh taskId={question.taskId} />
          <p className="muted">
            <Link href="/inbox" data-key="u" data-key-label="Back to the inbox">
            ← Inbox
          </Link>
          </p>
        </>
      )}
      <header className="question-header">
        <p className="asker">
          {asker.kind === "api" ? (
            <>
              <strong>{asker.label}</strong> asks over the API
            </>
          ) : (
            <>
              {asker.kind === "agent" ? "The agent " : null}
              <strong>{asker.label}</strong> asks
              {subject ? ` about ${subject.title}` : ""}
            </>
          )}
        </p>
        <h1>{headline}</h1>
        {slot?.delegatedFrom ? (
          <p className="notice" role="note">
            Meant for <strong>{slot.delegatedFromName ?? "someone"}</strong>, who is away and named{" "}
            {slot.assigneeId === user.id ? "you to answer in their place." : "someone to answer in their place."}
          </p>
        ) : null}
        {slot && open ? (
          <p className="question-clock">
            Waiting {formatDuration(now.getTime() - slot.openedAt.getTime())} ·{" "}
            <SlaClock openedAt={slot.openedAt.toISOString()} dueAt={slot.dueAt?.toISOString() ?? null} renderedAt={now.toISOString()} />
          </p>
        ) : null}
      </header>

      <div className="question-layout">
        <section className="question-answer" aria-label="Your answer">
          {/* A session from an answer link may only answer: it is told who holds the question, but takes nothing. */}
          {claimable && (!limited || holder.kind === "other") ? <ClaimPanel questionId={question.id} holder={holder} action={claimQuestionAction} /> : null}
          {/* One form, kept in place whatever the question's state, so what the person typed outlives a live refresh that closes it. */}
          {open && holder.kind === "other" ? null : (
            <AnswerForm
              key="answer"
              questionId={question.id}
              spec={specToAnswer(question.spec, headline)}
              open={open}
              // What the person typed is not offered back as "not taken" when they declined it themselves.
              answeredByMe={answeredByMe || declinedByMe}
              takenBy={answeredAt && !answeredByMe && (question.status === "answered" || slot?.status === "finished") ? { name: answeredBy ?? "Someone", at: answeredAt.toISOString(), agoMs: now.getTime() - answeredAt.getTime() } : undefined}
              attemptLabel={question.attemptsUsed > 0 ? attemptLabel({ allowed: question.attemptsAllowed, refused: question.attemptsUsed }) : undefined}
              lastAttempt={question.attemptsAllowed - question.attemptsUsed === 1}
              action={submitAnswerAction}
              closed={
                question.status === "answered" || slot?.status === "finished" ? (
                  <div role="status" className="answer-taken">
                    <p>
                      {answeredByMe ? "You" : (answeredBy ?? "Someone")} answered this
                      {answeredAt ? ` ${formatDuration(now.getTime() - answeredAt.getTime())} ago` : ""}
                      {answeredAt && slot ? `, after it waited ${formatDuration(answeredAt.getTime() - slot.openedAt.getTime())}` : ""}.
                      {answeredByMe && asker.kind === "agent" ? ` The ${asker.label} carries on.` : ""}
                    </p>
                    {answered.length > 0 ? (
                      <dl className="answered-values" aria-label="What was answered">
                        {answered.map((line) => (
                          <div key={line.path}>
                            {/* One question is the page's heading already: it is not said twice. */}
                            <dt>{answered.length === 1 ? "The answer" : line.question}</dt>
                            <dd>
                              <LongText text={line.answer} />
                            </dd>
                          </div>
                        ))}
                      </dl>
                    ) : null}
                  </div>
                ) : (
                  <div role="status" className="notice">
                    <p data-testid="closed-without-answer">{closedWithoutAnswerText(
                        question.reason ?? (pastDue ? "expired" : null),
                        run?.status,
                        "it is no longer open",
                        question.reason === "declined" ? { who: declinedByMe ? "You" : (question.declinedByName ?? "Someone it was put to"), note: question.declineNote } : undefined,
                      )}</p>
                  </div>
                )
              }
            />
          )}
          {after ? <KeepGoing questionId={question.id} sameRun={after.sameRun} next={after.next} /> : null}
          {open && holder.kind !== "other" ? (
            <DeclinePanel questionId={question.id} sharedWith={others.length} noteMaxLength={DECLINE_NOTE_MAX_LENGTH} action={declineQuestionAction} />
          ) : null}
          {open && !limited && holder.kind !== "other" ? (
            <SnoozePanel
              questionId={question.id}
              snoozedUntil={snoozedUntil?.toISOString() ?? null}
              dueAt={slot?.dueAt?.toISOString() ?? null}
              snoozeAction={snoozeQuestionAction}
              wakeAction={wakeQuestionAction}
            />
          ) : null}
          {run ? (
            <p className="run-state" data-testid="run-state">
              Where the run stands now: <strong>{runState?.label}</strong>
              {runState?.note ? ` (${runState.note})` : ""}.
            </p>
          ) : null}
        </section>

        <aside className="question-context" aria-label="Context">
          {context ? <ContextFacts panel={context} /> : null}
          {conversation.length > 0 ? (
            <section className="card-plain">
              <h2>The conversation so far</h2>
              <ol className="conversation">
                {conversationBeside(conversation, headline).map((line, index) => (
                  <Fragment key={index}>
                    {/* A long conversation shows its brief, then its latest part: what lies between is counted, not shown. */}
                    {gap && index === gap.beforeLine ? (
                      <li className="line earlier muted" data-testid="conversation-gap">
                        {gap.messages.toLocaleString("en-US")} earlier {gap.messages === 1 ? "message is" : "messages are"} not shown here.
                      </li>
                    ) : null}
                    <li className={`line ${line.kind}`}>
                      {line.kind === "instruction" ? (
                        <>
                          <span className="who">Instruction</span>
                          <LongText text={line.text} />
                        </>
                      ) : line.kind === "agent" ? (
                        <>
                          <span className="who">{asker.label}</span>
                          <LongText text={line.text} />
                        </>
                      ) : line.kind === "question" && line.current ? (
                        <>
                          <span className="who">{asker.label} asked</span>
                          <p className="pre muted">the question at the top of this page.</p>
                        </>
                      ) : line.kind === "question" ? (
                        <>
                          <span className="who">{asker.label} asked</span>
                          <LongText text={line.text} />
                          {line.options.length > 0 ? <p className="muted">Options: {line.options.join(" · ")}</p> : null}
                        </>
                      ) : line.kind === "answer" ? (
                        <>
                          <span className="who">Answer</span>
                          <LongText text={line.text} />
                        </>
                      ) : (
                        <span className="muted">used the {line.name} tool</span>
                      )}
                    </li>
                  </Fragment>
                ))}
              </ol>
            </section>
          ) : null}
        </aside>
      </div>
    </article>
  );
}
