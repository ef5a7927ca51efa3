-- Platform migrations 0001–0007 created the expense-review demo's tables (claims, review_tasks,
-- review_questions); since 0009 they belong to that example app, whose own migrations create them.
-- Where no app has adopted them (its migrations never ran here) and they hold nothing, they are
-- the platform's leftovers: a Parley without that app has no tables of it. Tables holding rows are
-- kept, so an upgraded database never loses a claim; the app adopts them when it is registered.
DO $$ BEGIN
  IF to_regclass('drizzle.app_migrations_expense_review') IS NULL
    AND to_regclass('public.review_questions') IS NOT NULL
    AND to_regclass('public.review_tasks') IS NOT NULL
    AND to_regclass('public.claims') IS NOT NULL
  THEN
    IF NOT EXISTS (SELECT 1 FROM "review_questions") AND NOT EXISTS (SELECT 1 FROM "review_tasks") AND NOT EXISTS (SELECT 1 FROM "claims") THEN
      DROP TABLE "review_questions";
      DROP TABLE "review_tasks";
      DROP TABLE "claims";
    END IF;
  END IF;
END $$;
