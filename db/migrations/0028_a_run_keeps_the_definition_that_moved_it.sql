-- A run keeps the fingerprint of the workflow definition that last moved it, and a deployment keeps each definition it
-- started with, so a start after a deploy can say which runs parked on an older definition the new one breaks. Runs
-- already in the table keep null: which definition moved them was never recorded, and SQL cannot work a fingerprint
-- out. Rather than rewrite every run at the first start, null is read as the workflow's first definition recorded —
-- the code the first start after this upgrade runs, the nearest thing to what those runs were parked by.
CREATE TABLE "workflow_definitions" (
	"workflow" text NOT NULL,
	"fingerprint" text NOT NULL,
	"description" jsonb NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workflow_definitions_workflow_fingerprint_pk" PRIMARY KEY("workflow","fingerprint")
);
--> statement-breakpoint
ALTER TABLE "workflow_instances" ADD COLUMN "definition_fingerprint" text;--> statement-breakpoint
CREATE INDEX "workflow_instances_open_definition_idx" ON "workflow_instances" USING btree ("workflow","definition_fingerprint","state") WHERE "workflow_instances"."status" in ('running', 'waiting', 'retryable');