CREATE INDEX "asks_open_slot_idx" ON "asks" USING btree ("slot_id","asked_at","id") WHERE "asks"."status" = 'open' and "asks"."reason" is null;--> statement-breakpoint
CREATE INDEX "asks_answered_by_idx" ON "asks" USING btree ("answered_by","answered_at") WHERE "asks"."answered_by" is not null;--> statement-breakpoint
CREATE INDEX "asks_agent_idx" ON "asks" USING btree ("agent") WHERE "asks"."agent" is not null;--> statement-breakpoint
CREATE INDEX "slots_open_due_order_idx" ON "slots" USING btree (coalesce("due_at", 'infinity'::timestamptz),"opened_at","id") WHERE "slots"."status" = 'open';--> statement-breakpoint
CREATE INDEX "slots_finished_by_idx" ON "slots" USING btree ("finished_by","finished_at") WHERE "slots"."finished_by" is not null;--> statement-breakpoint
CREATE INDEX "slots_workflow_idx" ON "slots" USING btree ("workflow");