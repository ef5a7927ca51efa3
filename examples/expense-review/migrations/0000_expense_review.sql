-- The expense review's tables. Databases from before Parley hosted apps (platform migrations 0001–0007)
-- have them already, created by the platform: every statement here leaves what exists alone.
CREATE TABLE IF NOT EXISTS "claims" (
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
CREATE TABLE IF NOT EXISTS "review_questions" (
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
CREATE TABLE IF NOT EXISTS "review_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"claim_id" uuid NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"assignee_id" uuid,
	"created_by" uuid,
	"decision" text,
	"decision_reason" text,
	"reimbursement" jsonb,
	"reimbursement_nothing" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "review_questions" ADD CONSTRAINT "review_questions_task_id_review_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."review_tasks"("id") ON DELETE no action ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "review_tasks" ADD CONSTRAINT "review_tasks_claim_id_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."claims"("id") ON DELETE no action ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "review_tasks" ADD CONSTRAINT "review_tasks_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
  ALTER TABLE "review_tasks" ADD CONSTRAINT "review_tasks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "review_questions_ask_key" ON "review_questions" USING btree ("ask_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "review_questions_task_idx" ON "review_questions" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "review_tasks_claim_idx" ON "review_tasks" USING btree ("claim_id");