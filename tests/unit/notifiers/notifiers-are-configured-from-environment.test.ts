import { describe, expect, it } from "vitest";
import {
  emailOptionsFromEnvironment,
  NotifierConfigurationError,
  notifiersFromEnvironment,
  webhookOptionsFromEnvironment,
  type NotifierEnvironment,
} from "@/lib/notifiers";

const webhook = { PARLEY_WEBHOOK_URL: "https://hooks.example.com/parley", PARLEY_WEBHOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwx9jUwkmAe/g=" };
const smtp = { PARLEY_SMTP_HOST: "smtp.example.com", PARLEY_SMTP_FROM: "Parley <parley@example.com>" };

function configurationError(env: NotifierEnvironment): NotifierConfigurationError {
  try {
    notifiersFromEnvironment(env);
  } catch (error) {
    if (error instanceof NotifierConfigurationError) return error;
    throw error;
  }
  throw new Error("expected a NotifierConfigurationError");
}

describe("notifiers from the environment", () => {
  it("are none when nothing is configured", () => {
    expect(notifiersFromEnvironment({ DATABASE_URL: "postgres://x", PARLEY_DATA_DIR: ".data" })).toEqual([]);
  });

  it("treat blank variables as unset", () => {
    expect(notifiersFromEnvironment({ PARLEY_WEBHOOK_URL: " ", PARLEY_WEBHOOK_SECRET: "", PARLEY_SMTP_HOST: "  " })).toEqual([]);
  });

  it("include a webhook when its URL and secret are set", () => {
    expect(notifiersFromEnvironment(webhook).map((notifier) => notifier.name)).toEqual(["webhook"]);
    expect(webhookOptionsFromEnvironment(webhook)).toEqual({ url: webhook.PARLEY_WEBHOOK_URL, secret: webhook.PARLEY_WEBHOOK_SECRET });
  });

  it("include email when the SMTP host and sender are set, leaving port and security to their defaults", () => {
    expect(notifiersFromEnvironment(smtp).map((notifier) => notifier.name)).toEqual(["email"]);
    expect(emailOptionsFromEnvironment(smtp)).toEqual({ host: "smtp.example.com", from: "Parley <parley@example.com>" });
  });

  it("include both when both are configured", () => {
    expect(notifiersFromEnvironment({ ...webhook, ...smtp }).map((notifier) => notifier.name)).toEqual(["webhook", "email"]);
  });

  it("read the SMTP port, security and credentials", () => {
    const options = emailOptionsFromEnvironment({
      ...smtp,
      PARLEY_SMTP_PORT: "465",
      PARLEY_SMTP_SECURE: "TLS",
      PARLEY_SMTP_USER: "parley",
      PARLEY_SMTP_PASSWORD: " secret with spaces ",
    });
    expect(options).toEqual({ ...{ host: "smtp.example.com", from: "Parley <parley@example.com>" }, port: 465, security: "tls", user: "parley", password: " secret with spaces " });
  });

  it.each<[string, NotifierEnvironment, string]>([
    ["a webhook secret without a URL", { PARLEY_WEBHOOK_SECRET: webhook.PARLEY_WEBHOOK_SECRET }, "PARLEY_WEBHOOK_URL"],
    ["a webhook URL without a secret", { PARLEY_WEBHOOK_URL: webhook.PARLEY_WEBHOOK_URL }, "PARLEY_WEBHOOK_SECRET"],
    ["a webhook URL that is not http(s)", { ...webhook, PARLEY_WEBHOOK_URL: "ftp://hooks.example.com" }, "PARLEY_WEBHOOK_URL"],
    ["a relative webhook URL", { ...webhook, PARLEY_WEBHOOK_URL: "/hooks" }, "PARLEY_WEBHOOK_URL"],
    ["a webhook secret that is not whsec_ (an old Parley secret)", { ...webhook, PARLEY_WEBHOOK_SECRET: "0123456789abcdef0123" }, "PARLEY_WEBHOOK_SECRET"],
    ["a whsec_ webhook secret shorter than 24 bytes", { ...webhook, PARLEY_WEBHOOK_SECRET: "whsec_MfKQ9r8GKYqrTwjU" }, "PARLEY_WEBHOOK_SECRET"],
    ["a whsec_ webhook secret that is not base64", { ...webhook, PARLEY_WEBHOOK_SECRET: "whsec_not base64, not at all!!!!" }, "PARLEY_WEBHOOK_SECRET"],
    ["SMTP settings without a host", { PARLEY_SMTP_FROM: smtp.PARLEY_SMTP_FROM, PARLEY_SMTP_PORT: "587" }, "PARLEY_SMTP_HOST"],
    ["an SMTP password alone", { PARLEY_SMTP_PASSWORD: "hunter2" }, "PARLEY_SMTP_HOST"],
    ["an SMTP host without a sender", { PARLEY_SMTP_HOST: smtp.PARLEY_SMTP_HOST }, "PARLEY_SMTP_FROM"],
    ["a sender that is not an address", { ...smtp, PARLEY_SMTP_FROM: "Parley" }, "PARLEY_SMTP_FROM"],
    ["a port that is not a number", { ...smtp, PARLEY_SMTP_PORT: "smtp" }, "PARLEY_SMTP_PORT"],
    ["a port out of range", { ...smtp, PARLEY_SMTP_PORT: "70000" }, "PARLEY_SMTP_PORT"],
    ["an unknown security mode", { ...smtp, PARLEY_SMTP_SECURE: "true" }, "PARLEY_SMTP_SECURE"],
    ["an SMTP user without a password", { ...smtp, PARLEY_SMTP_USER: "parley" }, "PARLEY_SMTP_PASSWORD"],
    ["an SMTP password without a user", { ...smtp, PARLEY_SMTP_PASSWORD: "hunter2" }, "PARLEY_SMTP_USER"],
  ])("refuse %s, naming the variable to fix", (_, env, variable) => {
    const error = configurationError(env);
    expect(error.code).toBe("notifier_misconfigured");
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
  });

  it("refuse a malformed webhook secret saying how to make one, without repeating it", () => {
    const error = configurationError({ ...webhook, PARLEY_WEBHOOK_SECRET: "my-old-shared-secret-value" });
    expect(error.message).toContain("whsec_");
    expect(error.message).toContain("openssl rand -base64 32");
    expect(error.message).toContain("randomBytes(32)");
    expect(error.message).not.toContain("my-old-shared-secret-value");
  });

  it("refuse a broken email configuration even when the webhook is fine", () => {
    expect(configurationError({ ...webhook, PARLEY_SMTP_HOST: "smtp.example.com" }).variable).toBe("PARLEY_SMTP_FROM");
  });
});
