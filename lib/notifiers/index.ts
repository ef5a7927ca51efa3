export {
  noticeDeliveryId,
  questionNoticeSchema,
  type DeliveryAttempt,
  type DeliveryReport,
  type NoticeRecipient,
  type Notifier,
  type QuestionNotice,
  type QuestionNoticeKind,
} from "./question-notice";
export {
  createWebhookNotifier,
  questionNoticeMessage,
  type QuestionWebhookData,
  type QuestionWebhookRecipient,
  type QuestionWebhookType,
  type WebhookNotifierOptions,
} from "./webhook-notifier";
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  deliverWebhook,
  isWebhookSecret,
  newWebhookSecret,
  signStandardWebhook,
  standardWebhookBody,
  verifyStandardWebhook,
  webhookDeliveryBoundMs,
  type ReceivedHeaders,
  type StandardWebhookHeaders,
  type StandardWebhookVerification,
  type VerifyStandardWebhookOptions,
  type WebhookDelivery,
  type WebhookMessage,
  type WebhookRetryOptions,
} from "./standard-webhook";
export { hasUrlCredentials, withoutUrlCredentials } from "./url-credentials";
export { composeInviteEmail, sendInviteEmail, type InviteEmail, type InviteEmailResult } from "./invite-email";
export { createEmailNotifier, createSmtpTransport, defaultSmtpSecurity, type EmailNotifierOptions, type SmtpSecurity } from "./email-notifier";
export { composeQuestionEmail, escapeHtml, singleLine, type QuestionEmail } from "./question-email";
export {
  emailOptionsFromEnvironment,
  NotifierConfigurationError,
  notifiersFromEnvironment,
  webhookOptionsFromEnvironment,
  type NotifierEnvironment,
} from "./notifiers-from-environment";
