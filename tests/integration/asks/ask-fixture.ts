import type { Db } from "@/db/client";
import { listen } from "@/db/notifications";
import { findApiAskById } from "@/db/queries/api-asks";
import { listNoticesForQuestion } from "@/db/queries/notification-outbox";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { ApiKey, User } from "@/db/schema";
import { authenticateApiKey, createApiKey } from "@/lib/api-keys";
import { ApiAsk } from "@/lib/asks/api-ask-workflow";
import { type AskService, createAskService } from "@/lib/asks/asks";
import { queueAskEventsOnAskEnded } from "@/lib/asks/ask-webhooks";
import { LIVE_CHANNEL, type LiveEvent, publishLiveEvents } from "@/lib/live-events";
import { type Announce, createRuntime, type RuntimeChange, type Runtime } from "@/lib/runtime";
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
  /** The runtime's announce hook: what runs inside every transaction that commits a change. */
  announce: Announce;
  /**
   * Runs inside every announcing transaction, after the hooks (ask events queued, if wired); throwing
   * from it rolls the change back. Undefined by default.
   */
  beforeCommit: ((changes: readonly RuntimeChange[]) => void | Promise<void>) | undefined;
  /** The outbox rows of an ask (by its question), oldest first. */
  outboxOf(askId: string): ReturnType<typeof listNoticesForQuestion>;
  close(): Promise<void>;
}

/** What the fixture wires beyond the ask service. */
export interface AskFixtureOptions {
  /** Queue asks' `ask.answered` / `ask.nothing` events as the app does; for the global receiver too when `global`. */
  askEvents?: { global: boolean };
}

/** A fresh database of `kind` with the fixture's people and keys, and the ask service over it. */
export async function createAskFixture(kind: DatabaseKind, options: AskFixtureOptions = {}): Promise<AskFixture> {
  const database = await createTestDatabase(kind);
  const [ada, bo, cy, olive] = await insertUsersIfAbsent(database.db, [
    { email: "ada@parley.test", name: "Ada Answerer", roles: ["assignee"] },
    { email: "bo@parley.test", name: "Bo Second", roles: ["assignee"] },
    { email: "cy@parley.test", name: "Cy Away", roles: ["assignee"], away: true },
    { email: "olive@parley.test", name: "Olive Operator", roles: ["operator"] },
  ]);
  const clock = { now: new Date("2026-12-04T09:00:00.000Z") };
  const now = () => new Date(clock.now);
  const queueAskEvents = options.askEvents ? queueAskEventsOnAskEnded({ baseUrl: BASE_URL, global: options.askEvents.global, now }) : undefined;
  // Changes are announced as the app announces them, so a waiting GET wakes through LISTEN/NOTIFY.
  const announce: Announce = async (tx: Db, changes) => {
    await publishLiveEvents(tx, changes.map((change): LiveEvent => ({ kind: change.kind, taskId: change.taskId, audience: { userIds: change.userIds } })));
    await queueAskEvents?.(tx, changes);
    await fixture.beforeCommit?.(changes);
  };
  const runtime = createRuntime({ db: database.db, workflows: [ApiAsk], now, announce });
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
  const fixture: AskFixture = {
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
    announce,
    beforeCommit: undefined,
    async outboxOf(askId) {
      const ask = await findApiAskById(database.db, askId);
      return ask ? listNoticesForQuestion(database.db, ask.questionId) : [];
    },
    close: () => database.close(),
  };
  return fixture;
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
