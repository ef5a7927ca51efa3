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
  it("is sent once to every recipient, from the configured sender", async () => {
    sink = await startSmtpSink();
    const report = await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from }).notify(sampleNotice());

    expect(report).toEqual({ notifier: "email", status: "delivered", attempts: [expect.objectContaining({ attempt: 1, outcome: "accepted", statusCode: 250 })] });
    expect(sink.messages).toHaveLength(1);
    const [message] = sink.messages;
    expect(message!.mailFrom).toBe("parley@example.com");
    expect(message!.recipients).toEqual(["sam@example.com", "alex@example.com"]);
    const mail = parseMail(message!.data);
    expect(mail.header("From")).toBe("Parley <parley@example.com>");
    expect(mail.header("To")).toBe("Sam Rivera <sam@example.com>, Alex Chen <alex@example.com>");
    expect(mail.header("Auto-Submitted")).toBe("auto-generated");
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
    expect(sink.logins).toEqual([{ user: "parley", password: "s3cret" }]);
  });
});
