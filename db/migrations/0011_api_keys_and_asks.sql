CREATE TABLE "api_asks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"api_key_id" uuid NOT NULL,
	"idempotency_key" text,
	"request_hash" text NOT NULL,
	"question_id" uuid NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"title" text NOT NULL,
	"body" text,
	"context" json,
	"response_schema" json,
	"to" json NOT NULL,
	"assignee_id" uuid,
	"candidate_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"due_at" timestamp with time zone,
	"attempts" integer NOT NULL,
	"callback_url" text,
	"metadata" json,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_prefix" text NOT NULL,
	"webhook_secret" text,
	"user_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"demo_secret" text,
	CONSTRAINT "api_keys_kind_known" CHECK ("api_keys"."kind" in ('agent', 'personal')),
	CONSTRAINT "api_keys_personal_has_user" CHECK ("api_keys"."kind" <> 'personal' or "api_keys"."user_id" is not null)
);
--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "response_schema" json;--> statement-breakpoint
ALTER TABLE "api_asks" ADD CONSTRAINT "api_asks_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_asks" ADD CONSTRAINT "api_asks_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_asks_idempotency_key" ON "api_asks" USING btree ("api_key_id","idempotency_key") WHERE "api_asks"."idempotency_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "api_asks_question_key" ON "api_asks" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "api_asks_key_created_idx" ON "api_asks" USING btree ("api_key_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash_key" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_created_idx" ON "api_keys" USING btree ("kind","created_at");