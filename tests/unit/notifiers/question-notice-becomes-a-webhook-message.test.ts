import { describe, expect, it } from "vitest";
import { questionNoticeMessage, standardWebhookBody } from "@/lib/notifiers";
import { sampleNotice } from "../../integration/notifiers/support/sample-notice";

describe("a question notice as a webhook message", () => {
  it("is question.opened, at the time the question opened, with the notice in snake_case as its data", () => {
    expect(questionNoticeMessage(sampleNotice())).toEqual({
      id: "q_0123:question-opened",
      type: "question.opened",
      timestamp: new Date("2026-12-02T09:00:00.000Z"),
      data: {
        id: "q_0123",
        url: "https://parley.example.com/questions/q_0123",
        question: "Was the water damage reported within 14 days?",
        asked_by: "Coverage auditor",
        subject: "Claim C-1042 (burst pipe, kitchen)",
        recipients: [
          { user_id: "u_sam", name: "Sam Rivera", email: "sam@example.com" },
          { user_id: "u_alex", name: "Alex Chen", email: "alex@example.com" },
        ],
        opened_at: "2026-12-02T09:00:00.000Z",
        due_at: "2026-12-03T09:00:00.000Z",
      },
    });
  });

  it("says due_at: null for a question with no deadline", () => {
    expect(questionNoticeMessage(sampleNotice({ dueAt: null })).data.due_at).toBeNull();
  });

  it("is question.reminded for a reminder, at the time of the reminder, under an id with no full stop", () => {
    const message = questionNoticeMessage(sampleNotice({ kind: "reminder", remindedAt: "2026-12-02T15:00:00.000Z", remindedBy: "Dana" }));
    expect(message).toMatchObject({ type: "question.reminded", timestamp: new Date("2026-12-02T15:00:00.000Z") });
    expect(message.data).toMatchObject({ reminded_at: "2026-12-02T15:00:00.000Z", reminded_by: "Dana" });
    expect(message.id).toBe(`q_0123:reminder:${Date.parse("2026-12-02T15:00:00.000Z")}`);
  });

  it("leaves reminded_by out when nobody is named", () => {
    const message = questionNoticeMessage(sampleNotice({ kind: "reminder", remindedAt: "2026-12-02T15:00:00.000Z" }));
    expect(message.data).not.toHaveProperty("reminded_by");
  });

  it("is sent as the envelope type, timestamp and data, in that order", () => {
    const message = questionNoticeMessage(sampleNotice());
    const body = standardWebhookBody(message);
    expect(Object.keys(JSON.parse(body))).toEqual(["type", "timestamp", "data"]);
    expect(body.startsWith('{"type":"question.opened","timestamp":"2026-12-02T09:00:00.000Z","data":{"id":"q_0123",')).toBe(true);
  });
});
