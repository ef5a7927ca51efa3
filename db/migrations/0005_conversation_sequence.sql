-- Messages are numbered within their conversation (seq), in commit order, so that a reader holding
-- the first n needs only those after n; existing messages are numbered in their id order.
ALTER TABLE "conversation_messages" ADD COLUMN "seq" integer;--> statement-breakpoint
UPDATE "conversation_messages" m SET "seq" = numbered.n
  FROM (SELECT id, row_number() OVER (PARTITION BY conversation_id ORDER BY id) AS n FROM "conversation_messages") numbered
  WHERE m.id = numbered.id;--> statement-breakpoint
ALTER TABLE "conversation_messages" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "message_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "conversations" c SET "message_count" = counted.n
  FROM (SELECT conversation_id, count(*)::int AS n FROM "conversation_messages" GROUP BY conversation_id) counted
  WHERE c.id = counted.conversation_id;--> statement-breakpoint
DROP INDEX "conversation_messages_conversation_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_messages_seq_key" ON "conversation_messages" USING btree ("conversation_id","seq");--> statement-breakpoint
CREATE INDEX "asks_open_task_idx" ON "asks" USING btree ("task_id") WHERE "asks"."status" = 'open';
