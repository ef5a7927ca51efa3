import { sql } from "drizzle-orm";
import { bigint, boolean, date, doublePrecision, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { afterEach, describe, expect, it } from "vitest";
import { claimNextJob, findTrackedItem, trackedRowReads } from "@/db/queries/runtime-jobs";
import { createRuntime, defineWorkflow } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

/** A tracked table with a column of every type a claim reads back from JSON. */
const everyKind = pgTable("claim_read_every_kind", {
  id: uuid("id").primaryKey().defaultRandom(),
  status: text("status").notNull().default("running"),
  count: integer("count").notNull(),
  ratio: doublePrecision("ratio").notNull(),
  big: bigint("big", { mode: "number" }).notNull(),
  flagged: boolean("flagged").notNull(),
  details: jsonb("details").$type<Record<string, unknown>>(),
  dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
  localAt: timestamp("local_at").notNull(),
  onDay: date("on_day", { mode: "date" }).notNull(),
  onDayText: date("on_day_text", { mode: "string" }).notNull(),
  note: text("note"),
});

/** One whose numeric column would come back from JSON as a number, not drizzle's string. */
const withNumeric = pgTable("claim_read_with_numeric", {
  id: uuid("id").primaryKey().defaultRandom(),
  status: text("status").notNull().default("running"),
  amount: numeric("amount").notNull(),
});

const Ticks = defineWorkflow({ name: "Ticks", tracks: everyKind, initial: "Working", events: {}, states: { Working: { enter: async (run) => run.goto("Done") }, Done: { terminal: "success" } } });
const Sums = defineWorkflow({ name: "Sums", tracks: withNumeric, initial: "Working", events: {}, states: { Working: { enter: async (run) => run.goto("Done") }, Done: { terminal: "success" } } });

describe.each(DATABASE_KINDS)("a job's claim (%s)", (kind) => {
  let database: TestDatabase;
  afterEach(async () => database?.close());

  async function setUp() {
    database = await createTestDatabase(kind);
    await database.db.execute(sql`create table claim_read_every_kind (id uuid primary key default gen_random_uuid(), status text not null default 'running',
      count integer not null, ratio double precision not null, big bigint not null, flagged boolean not null, details jsonb,
      due_at timestamptz not null, local_at timestamp not null, on_day date not null, on_day_text date not null, note text)`);
    await database.db.execute(sql`create table claim_read_with_numeric (id uuid primary key default gen_random_uuid(), status text not null default 'running', amount numeric not null)`);
    return createRuntime({ db: database.db, workflows: [Ticks, Sums] });
  }

  it("reads the claimed run's tracked row as drizzle reads it, in the same statement", async () => {
    const runtime = await setUp();
    const [row] = await database.db
      .insert(everyKind)
      .values({
        count: -7,
        ratio: 0.1 + 0.2,
        big: 9_007_199_254_740_991,
        flagged: true,
        details: { nested: { list: [1, "two", null] }, quote: 'say "hi"' },
        dueAt: new Date("2026-12-04T17:23:23.741Z"),
        localAt: new Date("2026-01-02T03:04:05.678Z"),
        onDay: new Date("2026-02-28T00:00:00.000Z"),
        onDayText: "2026-03-01",
        note: null,
      })
      .returning();
    await runtime.start(Ticks, row!);

    const job = await claimNextJob(database.db, { workerId: "w", at: new Date(), leaseMs: 30_000, rows: trackedRowReads([{ name: "Ticks", tracks: everyKind }]) });

    expect(job).toHaveProperty("item");
    expect(job?.item).toEqual(await findTrackedItem(database.db, everyKind, row!.id));
  });

  it("leaves a table with a column JSON would change to be read by itself", async () => {
    const runtime = await setUp();
    const [row] = await database.db.insert(withNumeric).values({ amount: "10.50" }).returning();
    await runtime.start(Sums, row!);

    const job = await claimNextJob(database.db, { workerId: "w", at: new Date(), leaseMs: 30_000, rows: trackedRowReads([{ name: "Sums", tracks: withNumeric }]) });

    expect(job).toBeDefined();
    expect(job).not.toHaveProperty("item");
  });
});
