import { afterEach, describe, expect, it } from "vitest";
import { emailInvite } from "@/lib/invites";
import { decodeHeaderWords, parseMail } from "../notifiers/support/mime";
import { startSmtpSink } from "../notifiers/support/smtp-sink";

let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

const invite = {
  name: "Nia Newcomer",
  email: "nia@example.com",
  url: "https://parley.example.com/invite/kDkOKKVUaHsoLS5CID-A1-8v_IkgYGoNn-gqbM8StbE",
  expiresAt: new Date("2026-12-11T10:00:00Z"),
  invitedBy: "Ada Admin",
};

describe("an invite email", () => {
  it("reaches the person through the configured SMTP server, with the link and until when it works", async () => {
    sink = await startSmtpSink();
    const delivery = await emailInvite({ host: sink.host, port: sink.port, security: "none", from: "Parley <parley@example.com>" }, invite);

    expect(delivery).toBe("emailed");
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]!.recipients).toEqual(["nia@example.com"]);
    const mail = parseMail(sink.messages[0]!.data);
    expect(decodeHeaderWords(mail.header("Subject")!)).toBe("Ada Admin invited you to Parley");
    expect(mail.text).toContain(invite.url);
    expect(mail.text).toContain("the link works once, until 11 Dec 2026, 10:00 UTC");
    expect(mail.html).toContain(`<a href="${invite.url}">Set your password</a>`);
  });

  it("is not sent when no SMTP server is configured, and says so", async () => {
    expect(await emailInvite(undefined, invite)).toBe("not_configured");
  });

  it("reports a server that refuses it as failed, without throwing", async () => {
    sink = await startSmtpSink({ rejectRecipients: ["nia@example.com"] });
    expect(await emailInvite({ host: sink.host, port: sink.port, security: "none", from: "parley@example.com" }, invite)).toBe("email_failed");
  });
});
