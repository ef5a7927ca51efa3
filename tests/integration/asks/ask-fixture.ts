import { listen } from "@/db/notifications";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { ApiKey, User } from "@/db/schema";
import { authenticateApiKey, createApiKey } from "@/lib/api-keys";
import { ApiAsk } from "@/lib/asks/api-ask-workflow";
import { type AskService, createAskService } from "@/lib/asks/asks";
import { LIVE_CHANNEL, type LiveEvent, publishLiveEvents } from "@/lib/live-events";
import { createRuntime, type Runtime } from "@/lib/runtime";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "@/tests/support/databases";

/** Where the fixture's question pages are. */
export const BASE_URL = "https://parley.example.test";

/** A database with people to ask, two API keys, a runtime running the platform's ApiAsk and the ask service over them. */
export interface AskFixture {
  database: TestDatabase;
  runtime: Runtime;
  service: AskService;
  /** An assignee who answers. */
  ada: User;
  /** Another assignee. */
  bo: User;
  /** An assignee marked away. */
  cy: User;
  /** Someone who answers nothing (an operator only). */
  olive: User;
  /** The key the tests ask with, and another one. */
  key: ApiKey;
  otherKey: ApiKey;
  /** The fixture's clock: every service and runtime call reads it. */
  clock: { now: Date };
  /** Moves the clock on. */
  advance(milliseconds: number): void;
  close(): Promise<void>;
}

export async function createAskFixture(kind: DatabaseKind): Promise<AskFixture> {
  const database = await createTestDatabase(kind);
  const [ada, bo, cy, olive] = await insertUsersIfAbsent(database.db, [
    { email: "ada@parley.test", name: "Ada Answerer", roles: ["assignee"] },
    { email: "bo@parley.test", name: "Bo Second", roles: ["assignee"] },
    { email: "cy@parley.test", name: "Cy Away", roles: ["assignee"], away: true },
    { email: "olive@parley.test", name: "Olive Operator", roles: ["operator"] },
  ]);
  const clock = { now: new Date("2026-12-04T09:00:00.000Z") };
  const now = () => new Date(clock.now);
  // Changes are announced as the app announces them, so a waiting GET wakes through LISTEN/NOTIFY.
  const runtime = createRuntime({
    db: database.db,
    workflows: [ApiAsk],
    now,
    announce: (tx, changes) => publishLiveEvents(tx, changes.map((change): LiveEvent => ({ kind: change.kind, taskId: change.taskId, audience: { userIds: change.userIds } }))),
  });
  const service = createAskService({
    db: database.db,
    runtime,
    baseUrl: BASE_URL,
    now,
    async subscribe(handler) {
      const stop = await listen(database, LIVE_CHANNEL, (payload) => handler(JSON.parse(payload) as LiveEvent));
      return () => void stop().catch(() => {});
    },
  });
  const made = await createApiKey(database.db, { kind: "agent", name: "Release bot", by: olive!.id });
  const other = await createApiKey(database.db, { kind: "agent", name: "Other bot", by: olive!.id });
  const key = (await authenticateApiKey(database.db, made.secret))!;
  const otherKey = (await authenticateApiKey(database.db, other.secret))!;
  return {
    database,
    runtime,
    service,
    ada: ada!,
    bo: bo!,
    cy: cy!,
    olive: olive!,
    key,
    otherKey,
    clock,
    advance(milliseconds) {
      clock.now = new Date(clock.now.getTime() + milliseconds);
    },
    close: () => database.close(),
  };
}

/** A schema with one question of each common kind, as an API caller would send it. */
export const DEPLOY_SCHEMA = {
  type: "object",
  properties: {
    decision: {
      description: "Deploy now?",
      oneOf: [
        { const: "approve", title: "Approve" },
        { const: "reject", title: "Reject" },
      ],
    },
    window_hours: { type: "integer", description: "How many hours may it take?", minimum: 1, maximum: 12, errorMessage: "Between 1 and 12 hours, please." },
    notify: { type: "boolean", description: "Tell the on-call team?", default: false },
  },
  required: ["decision", "window_hours"],
} as const;
