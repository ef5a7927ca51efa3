-- An ask over the API that nobody answered ended its run `completed` in state Unanswered, so the runs list showed it
-- as completed while "Ended without an answer" counted none. Such a run now ends as every run a question left without
-- an answer does (`failed`, with the question's reason); the asks that ended before are moved there too. What the API
-- reports for each ask (its question's status: nothing, with the reason) does not change.
UPDATE "workflow_instances" w SET "status" = 'failed',
  "nothing_reason" = coalesce(
    (SELECT a."reason" FROM "asks" a WHERE a."task_id" = w."task_id" AND a."status" = 'nothing' ORDER BY a."answered_at" DESC NULLS LAST LIMIT 1),
    (SELECT 'expired' FROM "slots" s WHERE s."task_id" = w."task_id" AND s."status" = 'expired' LIMIT 1))
WHERE w."workflow" = 'ApiAsk' AND w."state" = 'Unanswered' AND w."status" = 'completed';--> statement-breakpoint
UPDATE "api_asks" k SET "status" = 'failed'
FROM "workflow_instances" w
WHERE w."workflow" = 'ApiAsk' AND w."task_id" = k."id" AND w."state" = 'Unanswered' AND k."status" = 'completed';
