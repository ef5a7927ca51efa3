import { createTransport, type SmtpError } from "nodemailer";
import { composeQuestionEmail, singleLine } from "./question-email";
import type { DeliveryAttempt, DeliveryReport, NoticeRecipient, Notifier, QuestionNotice } from "./question-notice";

/**
 * How the connection to the SMTP server is protected: `tls` from the first byte (usually port 465),
 * `starttls` upgraded before anything else is sent and refused if the server can't (usually 587), or
 * `none` — plain text, only for a relay on the same machine or a test sink.
 */
export type SmtpSecurity = "tls" | "starttls" | "none";

export interface EmailNotifierOptions {
  host: string;
  /** Default 465 with `tls`, else 587. */
  port?: number;
  /** Default `tls` on port 465, else `starttls`. */
  security?: SmtpSecurity;
  /** Sign in with AUTH when both are given. */
  user?: string;
  password?: string;
  /** The From header, e.g. `Parley <parley@example.com>`. */
  from: string;
  /** The whole send — connecting, greeting, every command — gives up after this long. Default 30 s. */
  timeoutMs?: number;
  /**
   * A link that lets `recipient` answer the notice's question from the email (a signed, single-use
   * link bound to them and that question), made as each email is sent; without it, or when it
   * gives none, the email links to the question's page.
   */
  answerLinkFor?: (notice: QuestionNotice, recipient: NoticeRecipient) => Promise<string | undefined>;
}

/** The security a port implies when none is configured. */
export function defaultSmtpSecurity(port: number | undefined): SmtpSecurity {
  return port === 465 ? "tls" : "starttls";
}

class SendTimeout extends Error {
  override name = "SendTimeout";
}

/**
 * The SMTP transport every email Parley sends goes through (question notices, invites), configured
 * from {@link EmailNotifierOptions} (`PARLEY_SMTP_*`).
 */
export function createSmtpTransport(options: EmailNotifierOptions) {
  const security = options.security ?? defaultSmtpSecurity(options.port);
  const port = options.port ?? (security === "tls" ? 465 : 587);
  const timeoutMs = options.timeoutMs ?? 30_000;
  return createTransport({
    host: options.host,
    port,
    secure: security === "tls",
    requireTLS: security === "starttls",
    ignoreTLS: security === "none",
    ...(options.user && options.password ? { auth: { user: options.user, pass: options.password } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // Messages are built from strings only; no part of a notice may make nodemailer read a file or URL.
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  });
}

/**
 * A notifier that emails each notice to its recipients, one message to each (so a link meant for one
 * person never reaches another), through an SMTP server. Resolves with a report — one attempt per
 * recipient — and never throws: an SMTP 5xx (or a server that can't do the required STARTTLS) is a
 * failure that won't go away by retrying; a 4xx, a timeout or a dropped connection may. The notice
 * fails when any recipient's email does, and a retry sends to every recipient again; a send
 * abandoned at `timeoutMs` may also still complete afterwards, so a retry can deliver twice.
 */
export function createEmailNotifier(options: EmailNotifierOptions): Notifier {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const transport = createSmtpTransport(options);

  return {
    name: "email",
    async notify(notice: QuestionNotice): Promise<DeliveryReport> {
      if (notice.recipients.length === 0) {
        return { notifier: "email", status: "failed", retryable: false, attempts: [{ attempt: 1, outcome: "rejected", error: "the notice has no recipients", durationMs: 0 }] };
      }
      // One email per recipient: each carries a link that is that person's alone.
      const attempts: DeliveryAttempt[] = [];
      let failed = false;
      let retryable = false;
      for (const [index, recipient] of notice.recipients.entries()) {
        const sent = await sendTo(notice, recipient);
        attempts.push({ ...sent.attempt, attempt: index + 1 });
        if (!sent.ok) {
          failed = true;
          retryable ||= sent.retryable;
        }
      }
      return failed ? { notifier: "email", status: "failed", retryable, attempts } : { notifier: "email", status: "delivered", attempts };
    },
  };

  async function sendTo(notice: QuestionNotice, recipient: NoticeRecipient): Promise<{ ok: true; attempt: DeliveryAttempt } | { ok: false; retryable: boolean; attempt: DeliveryAttempt }> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let timer: NodeJS.Timeout | undefined;
    try {
      const answerUrl = await options.answerLinkFor?.(notice, recipient);
      const { subject, text, html } = composeQuestionEmail(notice, answerUrl ? { answerUrl } : {});
      const info = await Promise.race([
        transport.sendMail({
          from: options.from,
          to: [{ name: singleLine(recipient.name), address: recipient.email }],
          subject,
          text,
          html,
          // RFC 3834: an automatic message; out-of-office replies should not answer it.
          headers: { "Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All" },
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new SendTimeout(`no answer from the SMTP server within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      const rejected = info.rejected.map((address) => (typeof address === "string" ? address : address.address));
      return {
        ok: true,
        attempt: {
          attempt: 1,
          outcome: "accepted",
          ...replyCode(info.response),
          ...(rejected.length > 0 ? { error: `refused for ${rejected.join(", ")}` } : {}),
          durationMs: elapsed(),
        },
      };
    } catch (error) {
      const classified = classify(error, elapsed());
      return { ok: false, retryable: classified.retryable, attempt: classified.attempts[0]! };
    } finally {
      clearTimeout(timer);
    }
  }
}

function replyCode(response: string | undefined): { statusCode?: number } {
  const code = Number(/^\d{3}/.exec(response ?? "")?.[0]);
  return Number.isInteger(code) ? { statusCode: code } : {};
}

function classify(error: unknown, durationMs: number): { retryable: boolean; attempts: DeliveryAttempt[] } {
  const smtpError = error as SmtpError;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof SendTimeout || smtpError.code === "ETIMEDOUT") {
    return { retryable: true, attempts: [{ attempt: 1, outcome: "timeout", error: message, durationMs }] };
  }
  if (typeof smtpError.responseCode === "number") {
    const permanent = smtpError.responseCode >= 500;
    return { retryable: !permanent, attempts: [{ attempt: 1, outcome: "rejected", statusCode: smtpError.responseCode, error: message, durationMs }] };
  }
  return { retryable: true, attempts: [{ attempt: 1, outcome: "network-error", error: message, durationMs }] };
}
