CREATE TABLE "question_snoozes" (
	"question_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"snoozed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "question_snoozes_question_id_user_id_pk" PRIMARY KEY("question_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "question_snoozes" ADD CONSTRAINT "question_snoozes_question_id_asks_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."asks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_snoozes" ADD CONSTRAINT "question_snoozes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "question_snoozes_user_idx" ON "question_snoozes" USING btree ("user_id","until");