import { createEmailNotifier, type EmailNotifierOptions, type SmtpSecurity } from "./email-notifier";
import type { Notifier } from "./question-notice";
import { isWebhookSecret } from "./standard-webhook";
import { hasUrlCredentials } from "./url-credentials";
import { createWebhookNotifier, type WebhookNotifierOptions } from "./webhook-notifier";

/** Environment variables, passed in so that tests can give their own. */
export type NotifierEnvironment = Record<string, string | undefined>;

// How to make a secret, in the error that asks for one: with what every Parley host has (Node), or openssl.
const HOW_TO_MAKE_A_WEBHOOK_SECRET =
  `make one with \`node -e "console.log('whsec_' + require('node:crypto').randomBytes(32).toString('base64'))"\`` +
  ` or \`echo "whsec_$(openssl rand -base64 32)"\`, and give the receiver the same value`;

const SMTP_VARIABLES = ["PARLEY_SMTP_HOST", "PARLEY_SMTP_PORT", "PARLEY_SMTP_USER", "PARLEY_SMTP_PASSWORD", "PARLEY_SMTP_FROM", "PARLEY_SMTP_SECURE"] as const;
const SMTP_SECURITY: readonly SmtpSecurity[] = ["tls", "starttls", "none"];

/**
 * A notifier is half configured: `variable` is the one to set or fix. Thrown at start-up, so a
 * deployment that meant to notify people doesn't start silently without it.
 */
export class NotifierConfigurationError extends Error {
  readonly code = "notifier_misconfigured";
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(message);
    this.name = "NotifierConfigurationError";
    this.variable = variable;
  }
}

function read(env: NotifierEnvironment, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}

/**
 * The notifiers the environment configures — none unless asked for:
 * a webhook with `PARLEY_WEBHOOK_URL` and `PARLEY_WEBHOOK_SECRET`; email with `PARLEY_SMTP_HOST` and
 * `PARLEY_SMTP_FROM` (and optionally `PARLEY_SMTP_PORT`, `PARLEY_SMTP_SECURE` = tls | starttls | none,
 * `PARLEY_SMTP_USER` with `PARLEY_SMTP_PASSWORD`). Throws `NotifierConfigurationError` naming the
 * variable when a notifier is half configured. `answerLinkFor` gives each email its recipient's own
 * link to answer from.
 */
export function notifiersFromEnvironment(env: NotifierEnvironment, extra: Pick<EmailNotifierOptions, "answerLinkFor"> = {}): Notifier[] {
  // Both are read before either is built, so a mistake in the second isn't hidden by the first.
  const webhook = webhookOptionsFromEnvironment(env);
  const email = emailOptionsFromEnvironment(env);
  return [...(webhook ? [createWebhookNotifier(webhook)] : []), ...(email ? [createEmailNotifier({ ...email, ...extra })] : [])];
}

/** The webhook notifier's options from `PARLEY_WEBHOOK_*`, or undefined when none is set. */
export function webhookOptionsFromEnvironment(env: NotifierEnvironment): WebhookNotifierOptions | undefined {
  const url = read(env, "PARLEY_WEBHOOK_URL");
  const secret = read(env, "PARLEY_WEBHOOK_SECRET");
  if (!url && !secret) return undefined;
  if (!url) throw new NotifierConfigurationError("PARLEY_WEBHOOK_URL", "PARLEY_WEBHOOK_SECRET is set but PARLEY_WEBHOOK_URL is not: set the URL the webhook is POSTed to.");
  if (!secret) {
    throw new NotifierConfigurationError("PARLEY_WEBHOOK_SECRET", `PARLEY_WEBHOOK_URL is set but PARLEY_WEBHOOK_SECRET is not: set the secret the receiver verifies signatures with (${HOW_TO_MAKE_A_WEBHOOK_SECRET}).`);
  }
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    throw new NotifierConfigurationError("PARLEY_WEBHOOK_URL", "PARLEY_WEBHOOK_URL must be an absolute http:// or https:// URL.");
  }
  if (hasUrlCredentials(new URL(url))) {
    // Named, not shown: the value holds a password and start-up errors end up in logs.
    throw new NotifierConfigurationError(
      "PARLEY_WEBHOOK_URL",
      "PARLEY_WEBHOOK_URL must not carry a user name or password (user:password@): webhooks cannot be sent to it; the receiver verifies each one's signature with PARLEY_WEBHOOK_SECRET instead.",
    );
  }
  if (!isWebhookSecret(secret)) {
    // The value itself stays out of the message: start-up errors end up in logs.
    throw new NotifierConfigurationError(
      "PARLEY_WEBHOOK_SECRET",
      `PARLEY_WEBHOOK_SECRET must be a Standard Webhooks secret, whsec_ followed by 24 to 64 random bytes in base64: ${HOW_TO_MAKE_A_WEBHOOK_SECRET}.`,
    );
  }
  return { url, secret };
}

/** The email notifier's options from `PARLEY_SMTP_*`, or undefined when none is set. */
export function emailOptionsFromEnvironment(env: NotifierEnvironment): EmailNotifierOptions | undefined {
  const host = read(env, "PARLEY_SMTP_HOST");
  if (!host) {
    const stray = SMTP_VARIABLES.find((name) => read(env, name));
    if (!stray) return undefined;
    throw new NotifierConfigurationError("PARLEY_SMTP_HOST", `${stray} is set but PARLEY_SMTP_HOST is not: set the SMTP server to send email through.`);
  }
  const from = read(env, "PARLEY_SMTP_FROM");
  if (!from) throw new NotifierConfigurationError("PARLEY_SMTP_FROM", "PARLEY_SMTP_HOST is set but PARLEY_SMTP_FROM is not: set the sender, e.g. `Parley <parley@example.com>`.");
  if (!from.includes("@") || /[\r\n]/.test(from)) {
    throw new NotifierConfigurationError("PARLEY_SMTP_FROM", "PARLEY_SMTP_FROM must be an email address, optionally with a name: `Parley <parley@example.com>`.");
  }

  const portText = read(env, "PARLEY_SMTP_PORT");
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && !(/^\d+$/.test(portText!) && port >= 1 && port <= 65535)) {
    throw new NotifierConfigurationError("PARLEY_SMTP_PORT", "PARLEY_SMTP_PORT must be a port number from 1 to 65535.");
  }

  const securityText = read(env, "PARLEY_SMTP_SECURE")?.toLowerCase();
  if (securityText !== undefined && !SMTP_SECURITY.includes(securityText as SmtpSecurity)) {
    throw new NotifierConfigurationError("PARLEY_SMTP_SECURE", "PARLEY_SMTP_SECURE must be tls, starttls or none.");
  }

  const user = read(env, "PARLEY_SMTP_USER");
  // Passwords may begin or end with spaces; only an empty one counts as unset.
  const password = env.PARLEY_SMTP_PASSWORD || undefined;
  if (user && !password) throw new NotifierConfigurationError("PARLEY_SMTP_PASSWORD", "PARLEY_SMTP_USER is set but PARLEY_SMTP_PASSWORD is not.");
  if (password && !user) throw new NotifierConfigurationError("PARLEY_SMTP_USER", "PARLEY_SMTP_PASSWORD is set but PARLEY_SMTP_USER is not.");

  return {
    host,
    from,
    ...(port !== undefined ? { port } : {}),
    ...(securityText !== undefined ? { security: securityText as SmtpSecurity } : {}),
    ...(user && password ? { user, password } : {}),
  };
}
