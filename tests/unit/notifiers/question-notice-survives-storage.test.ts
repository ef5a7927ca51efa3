import { describe, expect, it } from "vitest";
import { noticeDeliveryId, questionNoticeSchema } from "@/lib/notifiers";
import { sampleNotice } from "../../integration/notifiers/support/sample-notice";

describe("a question notice", () => {
  it("reads back unchanged from JSON", () => {
    const notice = sampleNotice({ kind: "reminder", remindedAt: "2026-12-02T15:00:00.000Z", remindedBy: "Dana" });
    expect(questionNoticeSchema.parse(JSON.parse(JSON.stringify(notice)))).toEqual(notice);
  });

  it("reads back with no deadline (dueAt null) for a question that has none", () => {
    const notice = sampleNotice({ dueAt: null });
    expect(questionNoticeSchema.parse(JSON.parse(JSON.stringify(notice)))).toEqual(notice);
  });

  it("is refused when its link is not http(s)", () => {
    expect(questionNoticeSchema.safeParse(sampleNotice({ url: "javascript:alert(1)" })).success).toBe(false);
  });

  it("is refused as a reminder without the time it was sent", () => {
    expect(questionNoticeSchema.safeParse({ ...sampleNotice(), kind: "reminder" }).success).toBe(false);
  });

  it("has one delivery id per notice: the same on every retry, different for each reminder, with no full stop", () => {
    const opened = sampleNotice();
    const first = sampleNotice({ kind: "reminder", remindedAt: "2026-12-02T15:00:00.000Z" });
    const second = sampleNotice({ kind: "reminder", remindedAt: "2026-12-02T18:00:00.000Z" });
    expect(noticeDeliveryId(opened)).toBe("q_0123:question-opened");
    expect(noticeDeliveryId(first)).toBe(noticeDeliveryId({ ...first }));
    expect(new Set([noticeDeliveryId(opened), noticeDeliveryId(first), noticeDeliveryId(second)]).size).toBe(3);
    // It is the webhook-id, which Standard Webhooks signs as `${id}.${timestamp}.…`.
    expect([opened, first, second].map(noticeDeliveryId).join("")).not.toContain(".");
  });
});
