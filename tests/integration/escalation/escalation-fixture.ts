import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows } from "@/db/client";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { groupMembers, groups, personNotifications, type User } from "@/db/schema";
import { remindOnEscalation } from "@/lib/notifications/outbox";
import { notifyInAppOnChanges } from "@/lib/person-notifications";
import { tasks } from "@/lib/registry";
import { type Announce, answerOf, createRuntime, defineWorkflow, type Escalation, person, type Recipient, type Runtime, type RuntimeChange } from "@/lib/runtime";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "@/tests/support/databases";

/** The SLA every fixture wait has: ten hours, so 10 % of it is an hour. */
export const SLA_HOURS = 10;
export const HOUR = 3_600_000;

const Decision = z.object({ approve: z.boolean().describe("Approve the purchase?") }).meta({ title: "Purchase" });

/** Asks `input.to` for a {@link Decision} within ten hours, escalating along `input.escalate`. */
export const AskWithChain = defineWorkflow({
  name: "AskWithChain",
  tracks: tasks,
  initial: "Asking",
  events: { Decided: answerOf(Decision) },
  states: {
    Asking: {
      async enter(run) {
        const input = run.item.input as { to: Recipient | Recipient[]; escalate?: Escalation };
        await person.ask(run, "Decided", { to: input.to, within: { hours: SLA_HOURS }, ...(input.escalate ? { escalate: input.escalate } : {}) });
        return undefined;
      },
      on: {
        Decided(run, answer) {
          return answer.ok ? run.goto("Decided") : run.goto("Undecided");
        },
      },
    },
    Decided: { terminal: "success" },
    Undecided: { terminal: "error", message: "nobody decided" },
  },
});

/** A state's own wait (no question): `input.assigneeId` approves within ten hours; reminded at half time, finance added at 80 %. */
export const WaitWithChain = defineWorkflow({
  name: "WaitWithChain",
  tracks: tasks,
  initial: "Waiting",
  events: { Approved: z.object({ ok: z.boolean() }) },
  states: {
    Waiting: {
      subscribe: {
        Approved: {
          assignee: (run) => (run.item.input as { assigneeId: string }).assigneeId,
          within: { hours: SLA_HOURS },
          escalate: [
            { at: "50%", remind: true },
            { at: "80%", addGroup: "finance" },
          ],
          unfinished: (run) => run.goto("Expired"),
        },
      },
      on: { Approved: (run) => run.goto("Done") },
    },
    Done: { terminal: "success" },
    Expired: { terminal: "error", message: "nobody approved in time" },
  },
});

/** The chain most tests use: remind at half time, add finance at 80 %. */
export const REMIND_THEN_FINANCE: Escalation = [
  { at: "50%", remind: true },
  { at: "80%", addGroup: "finance" },
];

/** A database with finance (Fatima, Femi), Olu outside it, a test clock and runtimes announcing as the app does. */
export interface EscalationFixture {
  database: TestDatabase;
  runtime: Runtime;
  fatima: User;
  femi: User;
  olu: User;
  clock: { now: Date };
  advance(milliseconds: number): void;
  /** Every change announced, in order. */
  announced: RuntimeChange[];
  /** Another runtime over the same database and clock (another instance). */
  anotherRuntime(): Runtime;
  /** Starts an {@link AskWithChain} run and runs it to its question. */
  ask(to: Recipient | Recipient[], escalate?: Escalation): Promise<{ taskId: string; questionId: string; slotId: string }>;
  /** Starts a {@link WaitWithChain} run for `assigneeId`. */
  wait(assigneeId: string): Promise<{ taskId: string; slotId: string }>;
  /** The `escalated` run events of a task, oldest first. */
  escalatedEvents(taskId: string): Promise<Record<string, unknown>[]>;
  /** A slot's steps with when they fired. */
  stepsOf(slotId: string): Promise<{ step: number; firedAt: Date | null }[]>;
  /** A person's in-app notifications of a kind. */
  notificationsOf(userId: string, kind: "reminder" | "escalated"): Promise<{ questionId: string | null; data: Record<string, unknown> }[]>;
}

export async function createEscalationFixture(kind: DatabaseKind): Promise<EscalationFixture> {
  const database = await createTestDatabase(kind);
  const { db } = database;
  const [fatima, femi, olu] = await insertUsersIfAbsent(db, [
    { email: "fatima@parley.test", name: "Fatima Finance", roles: ["assignee"] },
    { email: "femi@parley.test", name: "Femi Finance", roles: ["assignee"] },
    { email: "olu@parley.test", name: "Olu Outside", roles: ["assignee"] },
  ]);
  const [finance] = await db.insert(groups).values({ name: "finance" }).returning();
  await db.insert(groupMembers).values([
    { groupId: finance!.id, userId: fatima!.id },
    { groupId: finance!.id, userId: femi!.id },
  ]);
  const clock = { now: new Date("2026-12-04T08:00:00.000Z") };
  const now = () => new Date(clock.now);
  const announced: RuntimeChange[] = [];
  const notifyPeople = notifyInAppOnChanges({ now });
  const remind = remindOnEscalation({ baseUrl: "https://parley.example.test", notifiers: [], now });
  // The app's hooks that tell people, inside the transaction of the change.
  const announce: Announce = async (tx, changes) => {
    await notifyPeople(tx, changes);
    await remind(tx, changes);
    announced.push(...changes);
  };
  const makeRuntime = () => createRuntime({ db, workflows: [AskWithChain, WaitWithChain], now, announce });
  const runtime = makeRuntime();
  return {
    database,
    runtime,
    fatima: fatima!,
    femi: femi!,
    olu: olu!,
    clock,
    advance(milliseconds) {
      clock.now = new Date(clock.now.getTime() + milliseconds);
    },
    announced,
    anotherRuntime: makeRuntime,
    async ask(to, escalate) {
      const [task] = await db.insert(tasks).values({ workflow: AskWithChain.name, title: "A new laptop", input: { to, ...(escalate ? { escalate } : {}) } }).returning();
      await runtime.start(AskWithChain, task!);
      await runtime.runJobsOf(task!.id);
      const [asked] = (await runtime.events(task!.id)).filter((event) => event.kind === "question-asked");
      const [opened] = (await runtime.events(task!.id)).filter((event) => event.kind === "slot-opened");
      return { taskId: task!.id, questionId: String(asked!.data.questionId), slotId: String(opened!.data.slotId) };
    },
    async wait(assigneeId) {
      const [task] = await db.insert(tasks).values({ workflow: WaitWithChain.name, title: "Approve the budget", input: { assigneeId } }).returning();
      await runtime.start(WaitWithChain, task!);
      const [opened] = (await runtime.events(task!.id)).filter((event) => event.kind === "slot-opened");
      return { taskId: task!.id, slotId: String(opened!.data.slotId) };
    },
    async escalatedEvents(taskId) {
      return (await runtime.events(taskId)).filter((event) => event.kind === "escalated").map((event) => event.data);
    },
    async stepsOf(slotId) {
      const rows = await queryRows<{ step: number; fired_at: Date | string | null }>(db, sql`select step, fired_at from slot_escalations where slot_id = ${slotId} order by step`);
      return rows.map((row) => ({ step: Number(row.step), firedAt: row.fired_at === null ? null : new Date(row.fired_at) }));
    },
    async notificationsOf(userId, kind) {
      const rows = await db.select().from(personNotifications).where(eq(personNotifications.userId, userId));
      return rows.filter((row) => row.kind === kind).map((row) => ({ questionId: row.questionId, data: row.data as Record<string, unknown> }));
    },
  };
}
