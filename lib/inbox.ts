import type { Db } from "@/db/client";
import { type AnsweredQuestionRow, listAnsweredBy } from "@/db/queries/inbox";
import type { QuestionRow } from "@/db/queries/runtime-questions";
import { describeTasks, type TaskSubject } from "@/lib/example/task-subjects";
import type { QuestionDesk } from "@/lib/runtime";

/** The inbox's views. */
export const INBOX_VIEWS = ["assigned", "candidates", "overdue", "answered"] as const;
export type InboxView = (typeof INBOX_VIEWS)[number];

export function parseInboxView(value: unknown): InboxView {
  return INBOX_VIEWS.find((view) => view === value) ?? "assigned";
}

/** Who is asking: an agent, or a flow asking a person for a whole answer. */
export interface Asker {
  kind: "agent" | "workflow";
  name: string;
}

/** One open question in someone's inbox. */
export interface InboxRow {
  id: string;
  /** The question in the asker's own words: the agent's text, or the questionnaire's title. */
  headline: string;
  asker: Asker;
  subject: TaskSubject | undefined;
  openedAt: Date;
  dueAt: Date | null;
  assignedToMe: boolean;
}

/** What the inbox page shows. */
export interface Inbox {
  view: InboxView;
  rows: InboxRow[];
  answered: (AnsweredQuestionRow & { asker: Asker; subject: TaskSubject | undefined })[];
  counts: Record<InboxView, number>;
}

/** The question in the asker's own words. */
export function headlineOf(question: Pick<QuestionRow, "title" | "spec">): string {
  return question.title ?? question.spec.title ?? question.spec.fields[0]?.question ?? "A question";
}

export function askerOf(question: { agent: string | null; workflow: string | null }): Asker {
  return question.agent ? { kind: "agent", name: question.agent } : { kind: "workflow", name: question.workflow ?? "A flow" };
}

/**
 * The signed-in person's inbox: what they may answer now (one indexed query, soonest due first), split
 * into views, and what they answered before.
 */
export async function loadInbox(db: Db, desk: QuestionDesk, userId: string, view: InboxView, now: Date): Promise<Inbox> {
  const [open, answered] = await Promise.all([desk.questionsFor(userId), listAnsweredBy(db, userId)]);
  const subjects = await describeTasks(db, [...open.map((question) => question.taskId), ...answered.map((question) => question.taskId)]);
  const rows: InboxRow[] = open.flatMap((question) =>
    question.slot
      ? [
          {
            id: question.id,
            headline: headlineOf(question),
            asker: askerOf(question),
            subject: subjects.get(question.taskId),
            openedAt: question.slot.openedAt,
            dueAt: question.slot.dueAt,
            assignedToMe: question.slot.assigneeId === userId,
          },
        ]
      : [],
  );
  const inView: Record<Exclude<InboxView, "answered">, InboxRow[]> = {
    assigned: rows.filter((row) => row.assignedToMe),
    candidates: rows.filter((row) => !row.assignedToMe),
    overdue: rows.filter((row) => row.dueAt !== null && row.dueAt <= now),
  };
  return {
    view,
    rows: view === "answered" ? [] : inView[view],
    answered: answered.map((question) => ({ ...question, asker: askerOf(question), subject: subjects.get(question.taskId) })),
    counts: { ...mapCounts(inView), answered: answered.length },
  };
}

function mapCounts(views: Record<Exclude<InboxView, "answered">, InboxRow[]>) {
  return { assigned: views.assigned.length, candidates: views.candidates.length, overdue: views.overdue.length };
}
