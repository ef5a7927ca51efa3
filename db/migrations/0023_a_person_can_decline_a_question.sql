ALTER TABLE "asks" ADD COLUMN "declined_by" uuid;--> statement-breakpoint
ALTER TABLE "asks" ADD COLUMN "decline_note" text;--> statement-breakpoint
ALTER TABLE "asks" ADD CONSTRAINT "asks_declined_by_users_id_fk" FOREIGN KEY ("declined_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;