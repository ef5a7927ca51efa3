CREATE TABLE "notification_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"question_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"notifier" text NOT NULL,
	"notice" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"deliveries" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"report" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "notification_outbox_queued_idx" ON "notification_outbox" USING btree ("run_at","id") WHERE "notification_outbox"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "notification_outbox_delivering_idx" ON "notification_outbox" USING btree ("locked_until") WHERE "notification_outbox"."status" = 'delivering';--> statement-breakpoint
CREATE UNIQUE INDEX "notification_outbox_opened_key" ON "notification_outbox" USING btree ("question_id","notifier") WHERE "notification_outbox"."kind" = 'question-opened';--> statement-breakpoint
CREATE INDEX "slots_history_idx" ON "slots" USING btree ("finished_at") WHERE "slots"."status" in ('finished', 'expired');