-- (First, so the backfill below finds each run's expired waits by index.)
CREATE INDEX "slots_task_idx" ON "slots" USING btree ("task_id");--> statement-breakpoint
ALTER TABLE "workflow_instances" ADD COLUMN "nothing_reason" text;--> statement-breakpoint
-- A failed run keeps why a question of it got no answer, as the runs list used to work out on every read:
-- the latest question that ended with nothing, else an expired wait.
UPDATE "workflow_instances" w SET "nothing_reason" = coalesce(
  (SELECT a."reason" FROM "asks" a WHERE a."task_id" = w."task_id" AND a."status" = 'nothing' ORDER BY a."answered_at" DESC NULLS LAST LIMIT 1),
  (SELECT 'expired' FROM "slots" s WHERE s."task_id" = w."task_id" AND s."status" = 'expired' LIMIT 1))
WHERE w."status" = 'failed';--> statement-breakpoint
ALTER TABLE "workflow_instances" ADD COLUMN "run_state" text GENERATED ALWAYS AS (case when status = 'failed' and nothing_reason is not null then 'nothing' when status in ('failed', 'retryable') then 'failed' else status end) STORED;--> statement-breakpoint
CREATE INDEX "workflow_instances_task_idx" ON "workflow_instances" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "workflow_instances_newest_idx" ON "workflow_instances" USING btree ("created_at","task_id");--> statement-breakpoint
CREATE INDEX "workflow_instances_state_newest_idx" ON "workflow_instances" USING btree ("run_state","created_at","task_id");--> statement-breakpoint
CREATE INDEX "workflow_instances_workflow_newest_idx" ON "workflow_instances" USING btree ("workflow","created_at","task_id");--> statement-breakpoint
CREATE INDEX "workflow_instances_workflow_state_newest_idx" ON "workflow_instances" USING btree ("workflow","run_state","created_at","task_id");