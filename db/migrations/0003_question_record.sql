ALTER TABLE "asks" ALTER COLUMN "conversation_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "asks" ALTER COLUMN "agent" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "asks" ALTER COLUMN "tool_call_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "workflow_instance_id" uuid;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "workflow" text;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "event" text;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "slot_id" uuid;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "step_key" text;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "attempts_allowed" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "attempts_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "answered_by" uuid;--> statement-breakpoint
ALTER TABLE "review_tasks" ADD COLUMN "reimbursement" jsonb;--> statement-breakpoint
ALTER TABLE "review_tasks" ADD COLUMN "reimbursement_nothing" text;--> statement-breakpoint
ALTER TABLE "asks" ADD CONSTRAINT "asks_workflow_instance_id_workflow_instances_id_fk" FOREIGN KEY ("workflow_instance_id") REFERENCES "public"."workflow_instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asks" ADD CONSTRAINT "asks_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "asks_slot_idx" ON "asks" USING btree ("slot_id") WHERE "asks"."slot_id" is not null;--> statement-breakpoint
CREATE INDEX "asks_task_idx" ON "asks" USING btree ("task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "asks_step_key" ON "asks" USING btree ("step_key") WHERE "asks"."step_key" is not null;--> statement-breakpoint
-- An agent's ask stored before this migration held {kind: "ask", text, options}; it becomes the
-- one-field question spec every ask is stored as now (its options, when it gave any, as an enum).
UPDATE "asks" SET "spec" = jsonb_build_object(
  'version', 1,
  'fields', jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
    'path', 'answer', 'name', 'answer', 'question', "spec"->>'text',
    'kind', CASE WHEN jsonb_typeof("spec"->'options') = 'array' AND jsonb_array_length("spec"->'options') > 0 THEN 'enum' ELSE 'text' END,
    'options', CASE WHEN jsonb_typeof("spec"->'options') = 'array'
      THEN (SELECT jsonb_agg(jsonb_build_object('value', o, 'label', o)) FROM jsonb_array_elements_text("spec"->'options') AS o)
      ELSE NULL END,
    'optional', false, 'nullable', false, 'hasDefault', false, 'hints', '{}'::jsonb))),
  'groups', '[]'::jsonb,
  'crossFieldChecks', false
) WHERE "spec"->>'kind' = 'ask';
