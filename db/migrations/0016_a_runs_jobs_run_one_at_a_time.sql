-- One running job per run: two claims whose snapshots were taken before either committed could both win.
-- Should that have happened, all but the oldest of a run's running jobs go back to the queue first.
UPDATE "jobs" SET "status" = 'queued', "locked_by" = NULL, "locked_until" = NULL
WHERE "status" = 'running' AND "id" NOT IN (SELECT min("id") FROM "jobs" WHERE "status" = 'running' GROUP BY "workflow_instance_id");--> statement-breakpoint
DROP INDEX "jobs_running_instance_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_running_instance_idx" ON "jobs" USING btree ("workflow_instance_id") WHERE "jobs"."status" = 'running';
