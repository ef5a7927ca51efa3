-- The expense-review demo's tables (claims, review_tasks, review_questions) leave the platform's
-- schema: they belong to that example app now, whose own migrations (examples/expense-review/
-- migrations) create them where they are missing. Nothing is dropped, so a database upgraded from
-- 0007 keeps its claims and reviews whether or not the example is registered.
SELECT 1;
