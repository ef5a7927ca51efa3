import { describe, expect, it } from "vitest";
import { composeQuestionEmail } from "@/lib/notifiers";
import { sampleNotice } from "../../integration/notifiers/support/sample-notice";

describe("a question email", () => {
  it("escapes markup the agent wrote, in the HTML part", () => {
    const { html } = composeQuestionEmail(sampleNotice({ question: `<script>alert("x")</script> & <img src=x onerror=alert(1)>` }));
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#60;img src=x onerror=alert(1)&#62;");
  });

  it("escapes the asker's name and the subject, in the HTML part", () => {
    const { html } = composeQuestionEmail(sampleNotice({ askedBy: "<b>Auditor</b>", subject: `Claim "A" <i>` }));
    expect(html).toContain("&#60;b&#62;Auditor&#60;/b&#62;");
    expect(html).toContain("Claim &#34;A&#34; &#60;i&#62;");
  });

  it("keeps the question's text as written in the plain-text part", () => {
    const { text } = composeQuestionEmail(sampleNotice({ question: "Is <this> & that right?\nSecond line" }));
    expect(text).toContain("> Is <this> & that right?\n> Second line");
    expect(text).toContain("Answer it here: https://parley.example.com/questions/q_0123");
  });

  it("puts the question on the subject line as one line", () => {
    const { subject } = composeQuestionEmail(sampleNotice({ question: "Hello\r\nBcc: victim@example.com\n\u2028More\u0000" }));
    expect(subject).toBe("Question for you: Hello Bcc: victim@example.com More");
  });

  it("shortens a long question on the subject line", () => {
    const { subject } = composeQuestionEmail(sampleNotice({ question: "word ".repeat(60) }));
    expect(subject.startsWith("Question for you: word word")).toBe(true);
    expect(subject.endsWith("…")).toBe(true);
    expect(Array.from(subject.replace("Question for you: ", ""))).toHaveLength(100);
  });

  it("says a reminder is a reminder, and who sent it", () => {
    const email = composeQuestionEmail(sampleNotice({ kind: "reminder", remindedAt: "2026-12-02T15:00:00.000Z", remindedBy: "Dana (admin)" }));
    expect(email.subject).toBe("Reminder — question for you: Was the water damage reported within 14 days?");
    expect(email.text).toContain("A reminder from Dana (admin): Coverage auditor is still waiting for your answer");
  });

  it("links only to an http(s) address", () => {
    const { html, text } = composeQuestionEmail(sampleNotice({ url: "javascript:alert(1)" }));
    expect(html).not.toContain("javascript:");
    expect(text).not.toContain("javascript:");
  });

  it("gives the times in UTC", () => {
    const { text } = composeQuestionEmail(sampleNotice());
    expect(text).toContain("Answer by: 3 Dec 2026, 09:00 UTC");
  });
});
