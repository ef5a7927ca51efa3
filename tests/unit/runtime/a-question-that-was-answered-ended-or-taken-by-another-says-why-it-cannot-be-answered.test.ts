import { describe, expect, it } from "vitest";
import type { QuestionRow } from "@/db/queries/runtime-questions";
import { claimedByAnother, closeChanges, payloadOf, unavailable } from "@/lib/runtime/question-rules";

const NOW = new Date("2026-11-10T09:00:00.000Z");
const EARLIER = new Date("2026-11-10T08:00:00.000Z");
type Slot = NonNullable<QuestionRow["slot"]>;

/** An open question put to Ada and Bo (and the finance group's Cy), due tomorrow. */
function question(overrides: Partial<QuestionRow> = {}, slot: Partial<Slot> = {}): QuestionRow {
  return {
    id: "q1",
    taskId: "task-1",
    agent: null,
    conversationId: null,
    workflowInstanceId: "instance-1",
    workflow: "PayBack",
    event: "Reimbursed",
    title: null,
    spec: { fields: [{ path: "answer", label: "Answer", kind: "text", required: true }] } as unknown as QuestionRow["spec"],
    responseSchema: null,
    attemptsAllowed: 3,
    attemptsUsed: 0,
    status: "open",
    reason: null,
    answer: null,
    answeredBy: null,
    answeredByName: null,
    declinedBy: null,
    declinedByName: null,
    declineNote: null,
    askedAt: EARLIER,
    answeredAt: null,
    slot: {
      id: "s1",
      status: "open",
      assigneeId: null,
      candidateIds: ["ada", "bo"],
      candidateGroupIds: ["finance"],
      groupMemberIds: ["cy"],
      claimedBy: null,
      claimedByName: null,
      claimedAt: null,
      delegatedFrom: null,
      delegatedFromName: null,
      role: null,
      openedAt: EARLIER,
      dueAt: new Date("2026-11-11T09:00:00.000Z"),
      finishedBy: null,
      finishedByName: null,
      finishedAt: null,
      ...slot,
    },
    ...overrides,
  };
}

describe("a question that cannot be answered any more", () => {
  it("is open while nobody answered it, it has not ended and its slot is open and not due", () => {
    expect(unavailable(question(), NOW)).toBeUndefined();
  });

  it("is a conflict naming who answered it first, and when", () => {
    const answered = question({ status: "answered", answeredBy: "bo", answeredByName: "Bo", answeredAt: EARLIER });
    expect(unavailable(answered, NOW)).toEqual({
      status: "conflict",
      questionId: "q1",
      message: `Already answered by Bo at ${EARLIER.toISOString()}.`,
      answeredBy: { id: "bo", name: "Bo" },
      answeredAt: EARLIER,
      reason: null,
    });
  });

  it("says it closed unanswered once its slot is past due, before the sweep expired it", () => {
    expect(unavailable(question({}, { dueAt: NOW }), NOW)).toMatchObject({ status: "conflict", reason: "expired", message: `This question closed unanswered at ${NOW.toISOString()}.` });
  });

  it("says who declined it, with their note", () => {
    const declined = question({ status: "nothing", reason: "declined", declinedBy: "ada", declinedByName: "Ada", declineNote: "Not my budget" });
    expect(unavailable(declined, NOW)).toMatchObject({ reason: "declined", message: "Ada declined this question: “Not my budget”" });
  });

  it("is no longer open when its slot closed, or it has none", () => {
    expect(unavailable(question({}, { status: "cancelled" }), NOW)).toMatchObject({ status: "conflict", message: "This question is no longer open." });
    expect(unavailable(question({ slot: null }), NOW)).toMatchObject({ status: "conflict", message: "This question is no longer open." });
  });
});

describe("a question another candidate took", () => {
  const taken = question({}, { claimedBy: "bo", claimedByName: "Bo", claimedAt: EARLIER });

  it("is theirs alone to answer: anyone else is told who took it and when", () => {
    expect(claimedByAnother(taken, "ada")).toMatchObject({ status: "conflict", message: `Bo took this question at ${EARLIER.toISOString()}: only they can answer it, unless they give it back.` });
    expect(claimedByAnother(taken, "bo")).toBeUndefined();
  });

  it("is not refused to a closing that names nobody (the surface closing it for its person)", () => {
    expect(claimedByAnother(taken, undefined)).toBeUndefined();
  });
});

describe("what a question's flow receives", () => {
  it("is the typed answer, or nothing with its reason and the note a person left", () => {
    expect(payloadOf(question(), { value: { iban: "NL00" } })).toEqual({ ok: true, value: { iban: "NL00" } });
    expect(payloadOf(question(), { reason: "away" })).toEqual({ ok: false, reason: "away" });
    expect(payloadOf(question(), { reason: "declined", note: "Ask finance" })).toEqual({ ok: false, reason: "declined", note: "Ask finance" });
  });

  it("is, for an agent's ask, the words of the answer with the question's id", () => {
    const ask = question({ conversationId: "c1", agent: "Clerk" });
    expect(payloadOf(ask, { reason: "away" })).toMatchObject({ questionId: "q1", text: expect.stringContaining("away") });
  });

  it("ends with the question closed and its slot finished, told to everyone it was for", () => {
    expect(closeChanges(question())).toEqual([
      { kind: "question-closed", taskId: "task-1", questionId: "q1", userIds: ["ada", "bo", "cy"] },
      { kind: "slot-finished", taskId: "task-1", slotId: "s1", userIds: ["ada", "bo", "cy"] },
    ]);
  });
});
