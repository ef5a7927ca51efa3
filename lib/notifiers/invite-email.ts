import { createSmtpTransport, type EmailNotifierOptions } from "./email-notifier";
import { escapeHtml, singleLine } from "./question-email";
import { formatUtc } from "@/lib/sla-clock";

/** An invite to send: to whom, the link, until when it works, and who invited them. */
export interface InviteEmail {
  name: string;
  email: string;
  url: string;
  expiresAt: Date;
  invitedBy: string;
}

/** The subject, plain text and HTML of an invite email; names are escaped in the HTML and kept to one line in headers. */
export function composeInviteEmail(invite: InviteEmail): { subject: string; text: string; html: string } {
  const by = singleLine(invite.invitedBy);
  const until = formatUtc(invite.expiresAt);
  const subject = singleLine(`${by} invited you to Parley`);
  const text = [
    `Hello ${singleLine(invite.name)},`,
    "",
    `${by} added you to Parley, where agents and flows ask people questions.`,
    `Set your password here (the link works once, until ${until}):`,
    "",
    invite.url,
    "",
    "If you weren't expecting this, you can ignore this email.",
  ].join("\n");
  const html = [
    `<p>Hello ${escapeHtml(singleLine(invite.name))},</p>`,
    `<p>${escapeHtml(by)} added you to Parley, where agents and flows ask people questions.</p>`,
    `<p><a href="${escapeHtml(invite.url)}">Set your password</a> — the link works once, until ${escapeHtml(until)}.</p>`,
    `<p>If you weren't expecting this, you can ignore this email.</p>`,
  ].join("\n");
  return { subject, text, html };
}

/** Whether the invite email was handed to the SMTP server. Never throws. */
export type InviteEmailResult = { status: "sent" } | { status: "failed"; error: string };

/** Emails an invite through the configured SMTP server (`PARLEY_SMTP_*`), giving up after `timeoutMs` (default 15 s). */
export async function sendInviteEmail(options: EmailNotifierOptions, invite: InviteEmail): Promise<InviteEmailResult> {
  if (!/^https?:\/\//i.test(invite.url)) return { status: "failed", error: "the invite link is not an http(s) URL" };
  const transport = createSmtpTransport({ timeoutMs: 15_000, ...options });
  try {
    const { subject, text, html } = composeInviteEmail(invite);
    await transport.sendMail({
      from: options.from,
      to: [{ name: singleLine(invite.name), address: invite.email }],
      subject,
      text,
      html,
      headers: { "Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All" },
    });
    return { status: "sent" };
  } catch (error) {
    return { status: "failed", error: error instanceof Error ? error.message : String(error) };
  } finally {
    transport.close();
  }
}
