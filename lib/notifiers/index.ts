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
  webhookDeliveryBoundMs,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_IDEMPOTENCY_HEADER,
  type WebhookNotifierOptions,
} from "./webhook-notifier";
export {
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  signWebhookBody,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookSignatureCheck,
} from "./webhook-signature";
export { createEmailNotifier, defaultSmtpSecurity, type EmailNotifierOptions, type SmtpSecurity } from "./email-notifier";
export { composeQuestionEmail, escapeHtml, singleLine, type QuestionEmail } from "./question-email";
export {
  emailOptionsFromEnvironment,
  NotifierConfigurationError,
  notifiersFromEnvironment,
  webhookOptionsFromEnvironment,
  type NotifierEnvironment,
} from "./notifiers-from-environment";
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  deliverWebhook,
  isWebhookSecret,
  newWebhookSecret,
  signStandardWebhook,
  standardWebhookBody,
  verifyStandardWebhook,
  type ReceivedHeaders,
  type StandardWebhookHeaders,
  type StandardWebhookVerification,
  type VerifyStandardWebhookOptions,
  type WebhookDelivery,
  type WebhookMessage,
  type WebhookRetryOptions,
} from "./standard-webhook";
