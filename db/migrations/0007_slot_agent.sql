ALTER TABLE "slots" ADD COLUMN "agent" text;--> statement-breakpoint
-- Slots opened before this column: the agent of the earliest agent ask still handed to them (a wait
-- whose asks already moved on to a later slot cannot be told apart any more and stays without one).
UPDATE "slots" SET "agent" = "first_ask"."agent"
FROM (
  SELECT DISTINCT ON ("slot_id") "slot_id", "agent" FROM "asks"
  WHERE "slot_id" IS NOT NULL AND "agent" IS NOT NULL
  ORDER BY "slot_id", "asked_at", "id"
) AS "first_ask"
WHERE "first_ask"."slot_id" = "slots"."id";
