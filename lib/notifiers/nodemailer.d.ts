// The part of nodemailer's API that the email notifier uses. nodemailer ships no types of its own and
// the project takes one dependency for email, not two (@types/nodemailer); widen this as needed.
declare module "nodemailer" {
  export interface Address {
    name: string;
    address: string;
  }

  export interface SmtpTransportOptions {
    host: string;
    port: number;
    /** Implicit TLS from the first byte (port 465). */
    secure: boolean;
    /** Refuse to go on unless STARTTLS upgrades the connection. */
    requireTLS?: boolean;
    /** Never upgrade, even when the server offers STARTTLS. */
    ignoreTLS?: boolean;
    auth?: { user: string; pass: string };
    connectionTimeout?: number;
    greetingTimeout?: number;
    socketTimeout?: number;
    disableFileAccess?: boolean;
    disableUrlAccess?: boolean;
    logger?: boolean;
  }

  export interface SendMailOptions {
    from: string;
    to: Address[];
    subject: string;
    text: string;
    html: string;
    headers?: Record<string, string>;
  }

  export interface SentMessageInfo {
    messageId: string;
    accepted: Array<string | Address>;
    rejected: Array<string | Address>;
    response: string;
  }

  /** Errors from sending carry nodemailer's `code` (ETIMEDOUT, EAUTH…) and the SMTP reply code. */
  export interface SmtpError extends Error {
    code?: string;
    responseCode?: number;
  }

  export interface Transporter {
    sendMail(options: SendMailOptions): Promise<SentMessageInfo>;
    close(): void;
  }

  export function createTransport(options: SmtpTransportOptions): Transporter;
}
