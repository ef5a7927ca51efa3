-- The inbox and the questions API walk a person's open waits in due order, a page at a time: their assigned waits
-- along slots_open_assignee_idx (now in due order), their teams' along slots_open_groups_*_idx (db/queries/open-slot-walks.ts).
DROP INDEX "slots_open_assignee_idx";--> statement-breakpoint
CREATE INDEX "slots_open_assignee_idx" ON "slots" USING btree ("assignee_id",coalesce("due_at", 'infinity'::timestamptz),"opened_at","id") WHERE "slots"."status" = 'open';--> statement-breakpoint
CREATE INDEX "slots_open_groups_due_idx" ON "slots" USING btree ("candidate_group_ids",coalesce("due_at", 'infinity'::timestamptz),"opened_at","id") WHERE "slots"."status" = 'open' and "slots"."candidate_group_ids" <> '{}'::uuid[];--> statement-breakpoint
CREATE INDEX "slots_open_groups_opened_idx" ON "slots" USING btree ("candidate_group_ids","opened_at","id") WHERE "slots"."status" = 'open' and "slots"."candidate_group_ids" <> '{}'::uuid[];--> statement-breakpoint
-- The SLA numbers read a period's ended waits from one index that holds all they need (every ended status, not only
-- finished and expired: "ended without an answer" read the whole table).
DROP INDEX "slots_history_idx";--> statement-breakpoint
CREATE INDEX "slots_ended_idx" ON "slots" USING btree ("finished_at","id","status","wait_ms","due_at","finished_by","assignee_id","agent","workflow","candidate_group_ids") WHERE "slots"."status" <> 'open';--> statement-breakpoint
-- An API ask keeps its question's status, so the key's list walks one index per status.
ALTER TABLE "api_asks" ADD COLUMN "question_status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
UPDATE "api_asks" a SET "question_status" = q."status" FROM "asks" q WHERE q."id" = a."question_id" AND q."status" <> 'open';--> statement-breakpoint
CREATE INDEX "api_asks_key_status_created_idx" ON "api_asks" USING btree ("api_key_id","question_status","created_at","id");--> statement-breakpoint
-- Kept by PostgreSQL in the statement that changes the question, whichever statement that is (an answer, nothing,
-- an expiry, a cancel): every writer of asks.status stays as it is.
CREATE FUNCTION "parley_keep_api_ask_question_status"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "api_asks" SET "question_status" = NEW."status" WHERE "question_id" = NEW."id" AND "question_status" IS DISTINCT FROM NEW."status";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "asks_keep_api_ask_status_on_insert" AFTER INSERT ON "asks" FOR EACH ROW WHEN (NEW."status" <> 'open')
  EXECUTE FUNCTION "parley_keep_api_ask_question_status"();--> statement-breakpoint
CREATE TRIGGER "asks_keep_api_ask_status_on_update" AFTER UPDATE OF "status" ON "asks" FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "parley_keep_api_ask_question_status"();--> statement-breakpoint
-- A statement that calls this is planned without parallel workers (it is PARALLEL UNSAFE; being IMMUTABLE, it is
-- folded to true and costs nothing). The inbox's and the questions API's reads are bounded index walks, which a
-- parallel plan only slows: starting workers costs more than the walk, and the planner, misjudging how many open
-- waits have an open question, chooses one for a busy person.
CREATE FUNCTION "parley_serial_read"() RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL UNSAFE AS 'select true';
