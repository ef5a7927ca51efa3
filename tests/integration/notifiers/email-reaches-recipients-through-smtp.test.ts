import { afterEach, describe, expect, it } from "vitest";
import { createEmailNotifier } from "@/lib/notifiers";
import { decodeHeaderWords, parseMail } from "./support/mime";
import { sampleNotice } from "./support/sample-notice";
import { startSmtpSink } from "./support/smtp-sink";

let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

const from = "Parley <parley@example.com>";

describe("a question email", () => {
  it("is sent to each recipient in a message of their own, from the configured sender", async () => {
    sink = await startSmtpSink();
    const report = await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from }).notify(sampleNotice());

    expect(report).toEqual({
      notifier: "email",
      status: "delivered",
      attempts: [expect.objectContaining({ attempt: 1, outcome: "accepted", statusCode: 250 }), expect.objectContaining({ attempt: 2, outcome: "accepted", statusCode: 250 })],
    });
    expect(sink.messages.map((message) => message.recipients)).toEqual([["sam@example.com"], ["alex@example.com"]]);
    expect(sink.messages.map((message) => message.mailFrom)).toEqual(["parley@example.com", "parley@example.com"]);
    const mails = sink.messages.map((message) => parseMail(message.data));
    expect(mails.map((mail) => mail.header("To"))).toEqual(["Sam Rivera <sam@example.com>", "Alex Chen <alex@example.com>"]);
    expect(mails[0]!.header("From")).toBe("Parley <parley@example.com>");
    expect(mails[0]!.header("Auto-Submitted")).toBe("auto-generated");
  });

  it("carries each recipient's own answer link, and no one else's", async () => {
    sink = await startSmtpSink();
    const answerLinkFor = async (_notice: unknown, recipient: { userId: string }) => `https://parley.example.com/a/link-for-${recipient.userId}`;
    await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from, answerLinkFor }).notify(sampleNotice());
    const texts = sink.messages.map((message) => parseMail(message.data).text);
    expect(texts[0]).toContain("Answer it here: https://parley.example.com/a/link-for-u_sam");
    expect(texts[0]).not.toContain("link-for-u_alex");
    expect(texts[1]).toContain("Answer it here: https://parley.example.com/a/link-for-u_alex");
    expect(texts[1]).not.toContain("link-for-u_sam");
  });

  it("has the question on its subject line", async () => {
    sink = await startSmtpSink();
    await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from }).notify(sampleNotice({ question: "Was the damage reported — in time?" }));
    expect(decodeHeaderWords(parseMail(sink.messages[0]!.data).header("Subject")!)).toBe("Question for you: Was the damage reported — in time?");
  });

  it("has a plain-text part with the question, who asks, the link and the deadline", async () => {
    sink = await startSmtpSink();
    await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from }).notify(sampleNotice());
    const { text } = parseMail(sink.messages[0]!.data);
    expect(text).toContain("Coverage auditor asks you a question about Claim C-1042 (burst pipe, kitchen).");
    expect(text).toContain("> Was the water damage reported within 14 days?");
    expect(text).toContain("Answer it here: https://parley.example.com/questions/q_0123");
    expect(text).toContain("Answer by: 3 Dec 2026, 09:00 UTC");
  });

  it("has an HTML part linking to the question", async () => {
    sink = await startSmtpSink();
    await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from }).notify(sampleNotice());
    const { html } = parseMail(sink.messages[0]!.data);
    expect(html).toContain('<a href="https://parley.example.com/questions/q_0123">Answer it in Parley</a>');
    expect(html).toContain("Was the water damage reported within 14 days?");
  });

  it("signs in with the configured user and password", async () => {
    sink = await startSmtpSink({ auth: true });
    const report = await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from, user: "parley", password: "s3cret" }).notify(sampleNotice());
    expect(report.status).toBe("delivered");
    // One connection, and one sign-in, for each recipient's message.
    expect(sink.logins).toEqual([{ user: "parley", password: "s3cret" }, { user: "parley", password: "s3cret" }]);
  });
});
