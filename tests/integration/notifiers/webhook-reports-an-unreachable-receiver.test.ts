import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { createWebhookNotifier, newWebhookSecret } from "@/lib/notifiers";
import { sampleNotice } from "./support/sample-notice";

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

it("a receiver that refuses connections is reported as network errors, retryable, without throwing", async () => {
  const url = `http://127.0.0.1:${await closedPort()}/hooks`;
  const report = await createWebhookNotifier({ url, secret: newWebhookSecret(), maxAttempts: 2, retryDelayMs: 5 }).notify(sampleNotice());
  expect(report).toMatchObject({ status: "failed", retryable: true });
  expect(report.attempts.map((attempt) => attempt.outcome)).toEqual(["network-error", "network-error"]);
  expect(report.attempts[0]!.error).toContain("ECONNREFUSED");
});
