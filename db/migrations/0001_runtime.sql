CREATE TABLE "asks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"agent" text NOT NULL,
	"task_id" uuid NOT NULL,
	"tool_call_id" text NOT NULL,
	"spec" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"answer" jsonb,
	"asked_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "conversation_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" uuid NOT NULL,
	"role" text NOT NULL,
	"message" jsonb NOT NULL,
	"tool_call_id" text,
	"step_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"agent" text NOT NULL,
	"task_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"workflow_instance_id" uuid NOT NULL,
	"state" text NOT NULL,
	"slot_id" uuid,
	"payload" jsonb,
	"status" text DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "run_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"task_id" uuid NOT NULL,
	"workflow_instance_id" uuid,
	"kind" text NOT NULL,
	"agent" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workflow_instance_id" uuid NOT NULL,
	"workflow" text NOT NULL,
	"task_id" uuid NOT NULL,
	"state" text NOT NULL,
	"event" text NOT NULL,
	"role" text,
	"assignee_id" uuid,
	"candidate_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone,
	"finished_by" uuid,
	"finished_at" timestamp with time zone,
	"wait_ms" bigint,
	"payload" jsonb
);
--> statement-breakpoint
CREATE TABLE "workflow_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workflow" text NOT NULL,
	"task_id" uuid NOT NULL,
	"state" text NOT NULL,
	"status" text NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"merchant" text NOT NULL,
	"incurred_on" date NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_questions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"ask_id" uuid NOT NULL,
	"text" text NOT NULL,
	"options" jsonb,
	"status" text DEFAULT 'open' NOT NULL,
	"answer" text,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "review_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"assignee_id" uuid,
	"created_by" uuid,
	"decision" text,
	"decision_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "asks" ADD CONSTRAINT "asks_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_messages" ADD CONSTRAINT "conversation_messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_workflow_instance_id_workflow_instances_id_fk" FOREIGN KEY ("workflow_instance_id") REFERENCES "public"."workflow_instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_slot_id_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."slots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slots" ADD CONSTRAINT "slots_workflow_instance_id_workflow_instances_id_fk" FOREIGN KEY ("workflow_instance_id") REFERENCES "public"."workflow_instances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slots" ADD CONSTRAINT "slots_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slots" ADD CONSTRAINT "slots_finished_by_users_id_fk" FOREIGN KEY ("finished_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_questions" ADD CONSTRAINT "review_questions_task_id_review_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."review_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_tasks" ADD CONSTRAINT "review_tasks_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_tasks" ADD CONSTRAINT "review_tasks_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_tasks" ADD CONSTRAINT "review_tasks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "asks_conversation_call_key" ON "asks" USING btree ("conversation_id","tool_call_id");--> statement-breakpoint
CREATE INDEX "asks_open_idx" ON "asks" USING btree ("conversation_id") WHERE "asks"."status" = 'open';--> statement-breakpoint
CREATE INDEX "conversation_messages_conversation_idx" ON "conversation_messages" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_messages_tool_result_key" ON "conversation_messages" USING btree ("conversation_id","tool_call_id") WHERE "conversation_messages"."tool_call_id" is not null;--> statement-breakpoint
CREATE INDEX "conversation_messages_step_idx" ON "conversation_messages" USING btree ("conversation_id","step_key") WHERE "conversation_messages"."step_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_agent_task_key" ON "conversations" USING btree ("agent","task_id");--> statement-breakpoint
CREATE INDEX "jobs_queued_idx" ON "jobs" USING btree ("run_at","id") WHERE "jobs"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_running_idx" ON "jobs" USING btree ("locked_until") WHERE "jobs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "jobs_instance_idx" ON "jobs" USING btree ("workflow_instance_id");--> statement-breakpoint
CREATE INDEX "run_events_task_idx" ON "run_events" USING btree ("task_id","id");--> statement-breakpoint
CREATE INDEX "slots_open_candidates_idx" ON "slots" USING gin ("candidate_ids") WHERE "slots"."status" = 'open';--> statement-breakpoint
CREATE INDEX "slots_open_assignee_idx" ON "slots" USING btree ("assignee_id") WHERE "slots"."status" = 'open';--> statement-breakpoint
CREATE INDEX "slots_open_due_idx" ON "slots" USING btree ("due_at") WHERE "slots"."status" = 'open' and "slots"."due_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "slots_open_instance_event_key" ON "slots" USING btree ("workflow_instance_id","event") WHERE "slots"."status" = 'open';--> statement-breakpoint
CREATE INDEX "slots_instance_idx" ON "slots" USING btree ("workflow_instance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_instances_workflow_task_key" ON "workflow_instances" USING btree ("workflow","task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "review_questions_ask_key" ON "review_questions" USING btree ("ask_id");--> statement-breakpoint
CREATE INDEX "review_questions_task_idx" ON "review_questions" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "review_tasks_claim_idx" ON "review_tasks" USING btree ("claim_id");