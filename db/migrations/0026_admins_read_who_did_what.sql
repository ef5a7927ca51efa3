CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"action" text NOT NULL,
	"category" text NOT NULL,
	"actor_id" uuid,
	"actor_key_id" uuid,
	"task_id" uuid,
	"question_id" uuid,
	"person_id" uuid,
	"group_id" uuid,
	"api_key_id" uuid,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "audit_events_category_known" CHECK ("audit_events"."category" in ('answers', 'questions', 'runs', 'people', 'keys'))
);
--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_events_category_at_idx" ON "audit_events" USING btree ("category","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_actor_at_idx" ON "audit_events" USING btree ("actor_id","at","id") WHERE "audit_events"."actor_id" is not null;--> statement-breakpoint
-- A person's actions on runs are recorded by PostgreSQL from the run's own events, in the statement that appends
-- them (every writer of run_events stays as it is): answers, declines, claims, releases, reassignments (by Parley when
-- `by` is null: an escalation), cancels and retries. A declined question names itself; a wait's question is found by its slot.
CREATE FUNCTION "parley_audit_run_event"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  by_text text := NEW."data"->>'by';
  question_text text := NEW."data"->>'questionId';
  question uuid;
BEGIN
  IF question_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    question := question_text::uuid;
  ELSIF NEW."data"->>'slotId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    SELECT a."id" INTO question FROM "asks" a WHERE a."slot_id" = (NEW."data"->>'slotId')::uuid ORDER BY a."asked_at" DESC LIMIT 1;
  END IF;
  INSERT INTO "audit_events" ("at", "action", "category", "actor_id", "task_id", "question_id", "detail")
  VALUES (
    NEW."at",
    CASE NEW."kind" WHEN 'nothing' THEN 'declined' WHEN 'slot-reassigned' THEN 'reassigned' WHEN 'slot-claimed' THEN 'claimed'
                    WHEN 'slot-unclaimed' THEN 'released' ELSE NEW."kind" END,
    CASE WHEN NEW."kind" IN ('answered', 'nothing') THEN 'answers' WHEN NEW."kind" LIKE 'slot-%' THEN 'questions' ELSE 'runs' END,
    CASE WHEN by_text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN by_text::uuid END,
    NEW."task_id",
    question,
    NEW."data" - 'by' - 'questionId'
  );
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "run_events_audit" AFTER INSERT ON "run_events" FOR EACH ROW
  WHEN (NEW."kind" IN ('answered', 'slot-reassigned', 'slot-claimed', 'slot-unclaimed', 'cancelled', 'retried')
        OR (NEW."kind" = 'nothing' AND NEW."data"->>'reason' = 'declined'))
  EXECUTE FUNCTION "parley_audit_run_event"();--> statement-breakpoint
-- Changes to people (roles, groups, away, delegate, added, deactivated…) are recorded from person_changes the same way.
CREATE FUNCTION "parley_audit_person_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "audit_events" ("at", "action", "category", "actor_id", "person_id", "group_id", "detail")
  VALUES (NEW."at", 'person-' || NEW."kind", 'people', NEW."by_id", NEW."person_id",
    CASE WHEN NEW."data"->>'groupId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN (NEW."data"->>'groupId')::uuid END, NEW."data");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "person_changes_audit" AFTER INSERT ON "person_changes" FOR EACH ROW EXECUTE FUNCTION "parley_audit_person_change"();--> statement-breakpoint
-- What happened before this migration: the same actions from the runs' events, the changes to people, and the keys
-- made and revoked (who revoked one was not kept then). The log is read in time order, so the sources may go in one by one.
INSERT INTO "audit_events" ("at", "action", "category", "actor_id", "task_id", "question_id", "detail")
SELECT e."at",
  CASE e."kind" WHEN 'nothing' THEN 'declined' WHEN 'slot-reassigned' THEN 'reassigned' WHEN 'slot-claimed' THEN 'claimed'
                WHEN 'slot-unclaimed' THEN 'released' ELSE e."kind" END,
  CASE WHEN e."kind" IN ('answered', 'nothing') THEN 'answers' WHEN e."kind" LIKE 'slot-%' THEN 'questions' ELSE 'runs' END,
  CASE WHEN e."data"->>'by' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN (e."data"->>'by')::uuid END,
  e."task_id",
  CASE WHEN e."data"->>'questionId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN (e."data"->>'questionId')::uuid
       WHEN e."data"->>'slotId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
         THEN (SELECT a."id" FROM "asks" a WHERE a."slot_id" = (e."data"->>'slotId')::uuid ORDER BY a."asked_at" DESC LIMIT 1) END,
  e."data" - 'by' - 'questionId'
FROM "run_events" e
WHERE e."kind" IN ('answered', 'slot-reassigned', 'slot-claimed', 'slot-unclaimed', 'cancelled')
   OR (e."kind" = 'nothing' AND e."data"->>'reason' = 'declined')
ORDER BY e."id";--> statement-breakpoint
INSERT INTO "audit_events" ("at", "action", "category", "actor_id", "person_id", "group_id", "detail")
SELECT c."at", 'person-' || c."kind", 'people', c."by_id", c."person_id",
  CASE WHEN c."data"->>'groupId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN (c."data"->>'groupId')::uuid END, c."data"
FROM "person_changes" c ORDER BY c."at";--> statement-breakpoint
INSERT INTO "audit_events" ("at", "action", "category", "actor_id", "api_key_id", "detail")
SELECT k."created_at", 'key-created', 'keys', k."created_by", k."id", jsonb_build_object('name', k."name", 'kind', k."kind") FROM "api_keys" k ORDER BY k."created_at";--> statement-breakpoint
INSERT INTO "audit_events" ("at", "action", "category", "api_key_id", "detail")
SELECT k."revoked_at", 'key-revoked', 'keys', k."id", jsonb_build_object('name', k."name", 'kind', k."kind") FROM "api_keys" k WHERE k."revoked_at" IS NOT NULL ORDER BY k."revoked_at";
