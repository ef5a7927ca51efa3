import type { Db } from "@/db/client";
import { findRunForTask, listConversationMessages } from "@/db/queries/inbox";
import { type ConversationLine, readableConversation } from "@/lib/conversation-view";
import type { RunStatus } from "@/db/schema";

/** What the question page shows beside a question: where its run stands, and the agent's conversation. */
export interface QuestionRun {
  run: { workflow: string; state: string; status: RunStatus } | undefined;
  conversation: ConversationLine[];
}

/** Reads where a question's run stands and, when an agent asked it, that agent's conversation so far. */
export async function loadQuestionRun(db: Db, question: { taskId: string; conversationId: string | null }): Promise<QuestionRun> {
  const [run, messages] = await Promise.all([
    findRunForTask(db, question.taskId),
    question.conversationId ? listConversationMessages(db, question.conversationId) : Promise.resolve([]),
  ]);
  return { run, conversation: readableConversation(messages) };
}
