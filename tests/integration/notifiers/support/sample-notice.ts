import type { QuestionNotice } from "@/lib/notifiers";

/** A question-opened notice; override any field. */
export function sampleNotice(overrides: Partial<QuestionNotice> = {}): QuestionNotice {
  return {
    kind: "question-opened",
    id: "q_0123",
    url: "https://parley.example.com/questions/q_0123",
    question: "Was the water damage reported within 14 days?",
    askedBy: "Coverage auditor",
    subject: "Claim C-1042 (burst pipe, kitchen)",
    recipients: [
      { userId: "u_sam", name: "Sam Rivera", email: "sam@example.com" },
      { userId: "u_alex", name: "Alex Chen", email: "alex@example.com" },
    ],
    openedAt: "2026-12-02T09:00:00.000Z",
    dueAt: "2026-12-03T09:00:00.000Z",
    ...overrides,
  } as QuestionNotice;
}
