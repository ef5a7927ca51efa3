import { eq } from "drizzle-orm";
import { z } from "zod";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { groupMembers, groups, type User, users } from "@/db/schema";
import { tasks } from "@/lib/registry";
import { answerOf, createRuntime, defineWorkflow, group, person, type Recipient, type Runtime } from "@/lib/runtime";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "@/tests/support/databases";

/** What the team is asked: one yes-or-no. */
const Decision = z.object({ approve: z.boolean().describe("Approve the purchase?") }).meta({ title: "Purchase" });

/**
 * Asks whoever the task's `input.to` names (people by id, `{ group }`, or a list) for a {@link Decision},
 * and keeps the answer (or the reason nothing came) in the task's input.
 */
export const AskTeam = defineWorkflow({
  name: "AskTeam",
  tracks: tasks,
  initial: "Asking",
  events: { Decided: answerOf(Decision) },
  states: {
    Asking: {
      async enter(run) {
        const within = run.item.input.withinMinutes as number | undefined;
        await person.ask(run, "Decided", { to: run.item.input.to as Recipient | Recipient[], ...(within ? { within: { minutes: within } } : {}) });
        return undefined;
      },
      on: {
        async Decided(run, answer) {
          const kept = answer.ok ? { decision: answer.value } : { nothing: answer.reason };
          await run.db.update(tasks).set({ input: { ...run.item.input, ...kept } }).where(eq(tasks.id, run.taskId));
          return answer.ok ? run.goto("Decided") : run.goto("Undecided");
        },
      },
    },
    Decided: { terminal: "success" },
    Undecided: { terminal: "error", message: "nobody decided" },
  },
});

/** A database with finance (Fatima and Femi), a person outside it (Olu), and a runtime asking them. */
export interface TeamFixture {
  database: TestDatabase;
  runtime: Runtime;
  fatima: User;
  femi: User;
  olu: User;
  financeId: string;
  /** Starts an {@link AskTeam} run asking `to` (within so many minutes), runs it to its question; returns the task and its question's id. */
  ask(to: Recipient | Recipient[], withinMinutes?: number): Promise<{ taskId: string; questionId: string }>;
  /** Moves the runtime's clock on. */
  advance(milliseconds: number): void;
  /** The task's input as the run left it. */
  inputOf(taskId: string): Promise<Record<string, unknown>>;
  setPerson(id: string, change: Partial<Pick<User, "away" | "delegateId" | "deactivatedAt">>): Promise<void>;
}

export async function createTeamFixture(kind: DatabaseKind): Promise<TeamFixture> {
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
  const clock = { now: new Date("2026-12-01T09:00:00Z") };
  const runtime = createRuntime({ db, workflows: [AskTeam], now: () => clock.now });
  return {
    database,
    runtime,
    fatima: fatima!,
    femi: femi!,
    olu: olu!,
    financeId: finance!.id,
    advance(milliseconds) {
      clock.now = new Date(clock.now.getTime() + milliseconds);
    },
    async ask(to, withinMinutes) {
      const [task] = await db.insert(tasks).values({ workflow: AskTeam.name, title: "A new laptop", input: { to, ...(withinMinutes ? { withinMinutes } : {}) } }).returning();
      await runtime.start(AskTeam, task!);
      await runtime.drain();
      const [question] = (await runtime.events(task!.id)).filter((event) => event.kind === "question-asked");
      return { taskId: task!.id, questionId: String(question!.data.questionId) };
    },
    async inputOf(taskId) {
      const [task] = await db.select().from(tasks).where(eq(tasks.id, taskId));
      return task!.input as Record<string, unknown>;
    },
    async setPerson(id, change) {
      await db.update(users).set(change).where(eq(users.id, id));
    },
  };
}

export { group };
