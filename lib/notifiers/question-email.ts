import { formatUtc } from "@/lib/sla-clock";
import type { QuestionNotice } from "./question-notice";
import { shorten } from "@/lib/short-text";

/** The parts of a notice email that depend on the notice alone. */
export interface QuestionEmail {
  subject: string;
  text: string;
  html: string;
}

const SUBJECT_QUESTION_LENGTH = 100;

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * Text made safe for one header line: every line break, other control character and Unicode line or
 * paragraph separator becomes a space, so untrusted text can't start a header of its own (`Bcc:`…).
 */
export function singleLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ").trim();
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // Recipients' time zones aren't known here; UTC, said out loud, is never wrong.
  return formatUtc(date);
}

/**
 * The subject, plain text and HTML of a notice email. Everything the agent wrote (the question, its
 * name) and everything else from the notice is escaped in the HTML and flattened to one line in the
 * subject; the link is used only if it is http(s).
 */
export function composeQuestionEmail(notice: QuestionNotice, options: { answerUrl?: string } = {}): QuestionEmail {
  const headline = shorten(singleLine(notice.question) || "(no text)", SUBJECT_QUESTION_LENGTH);
  const reminder = notice.kind === "reminder";
  const subject = singleLine(`${reminder ? "Reminder — question" : "Question"} for you: ${headline}`);
  const url = /^https?:\/\//i.test(notice.url) ? notice.url : undefined;
  // The recipient's own link: it signs them in to answer this question only, once.
  const answerUrl = options.answerUrl && /^https?:\/\//i.test(options.answerUrl) ? options.answerUrl : undefined;

  const intro = reminder
    ? `A reminder${notice.remindedBy ? ` from ${notice.remindedBy}` : ""}: ${notice.askedBy} is still waiting for your answer about ${notice.subject}.`
    : `${notice.askedBy} asks you a question about ${notice.subject}.`;
  const opened = formatTime(notice.openedAt);
  const due = notice.dueAt === null ? undefined : formatTime(notice.dueAt);

  const text = [
    intro,
    "",
    ...notice.question.split(/\r\n|\r|\n/).map((line) => `> ${line}`),
    "",
    answerUrl ? `Answer it here: ${answerUrl}` : url ? `Answer it here: ${url}` : "Answer it in your Parley inbox.",
    ...(answerUrl ? ["(This link is yours alone: it opens this question only, works once and needs no password.)"] : []),
    ...(answerUrl && url ? ["", `Or sign in and open it: ${url}`] : []),
    "",
    `Asked: ${opened}`,
    due ? `Answer by: ${due}` : "There is no deadline: answer when you can.",
    "",
    "You are receiving this because Parley assigned you this question.",
  ].join("\n");

  const paragraph = (content: string) => `<p style="margin:0 0 16px">${content}</p>`;
  const questionHtml = notice.question.split(/\r\n|\r|\n/).map(escapeHtml).join("<br>");
  const html = [
    "<!doctype html>",
    '<html><head><meta charset="utf-8"></head>',
    '<body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;font-size:15px;line-height:1.5;color:#111">',
    paragraph(escapeHtml(intro)),
    `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid #ccc">${questionHtml}</blockquote>`,
    paragraph(
      answerUrl
        ? `<a href="${escapeHtml(answerUrl)}">Answer it in Parley</a><br><span style="color:#666;font-size:13px">This link is yours alone: it opens this question only, works once and needs no password.</span>`
        : url
          ? `<a href="${escapeHtml(url)}">Answer it in Parley</a>`
          : "Answer it in your Parley inbox.",
    ),
    paragraph(`Asked: ${escapeHtml(opened)}<br>${due ? `Answer by: <strong>${escapeHtml(due)}</strong>` : "There is no deadline: answer when you can."}`),
    `<p style="margin:0;color:#666;font-size:13px">You are receiving this because Parley assigned you this question.</p>`,
    "</body></html>",
  ].join("\n");

  return { subject, text, html };
}
