import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createEmailNotifier } from "@/lib/notifiers";
import { sampleNotice } from "./support/sample-notice";
import { startSmtpSink } from "./support/smtp-sink";

let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

const from = "parley@example.com";

describe("an email that can't be sent", () => {
  it("is not sent, nor are credentials, when STARTTLS is required and the server can't do it", async () => {
    sink = await startSmtpSink({ auth: true });
    const report = await createEmailNotifier({ host: sink.host, port: sink.port, security: "starttls", from, user: "parley", password: "s3cret" }).notify(sampleNotice());
    expect(report).toMatchObject({ status: "failed", retryable: false, attempts: [{ outcome: "rejected", statusCode: 502 }, { outcome: "rejected", statusCode: 502 }] });
    expect(sink.logins).toEqual([]);
    expect(sink.messages).toEqual([]);
    expect(sink.commands.some((command) => /^(AUTH|MAIL)/i.test(command))).toBe(false);
  });

  it("is a final failure when the server refuses every recipient", async () => {
    sink = await startSmtpSink({ rejectRecipients: ["sam@example.com", "alex@example.com"] });
    const report = await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from }).notify(sampleNotice());
    expect(report).toMatchObject({ status: "failed", retryable: false, attempts: [{ outcome: "rejected", statusCode: 550 }, { outcome: "rejected", statusCode: 550 }] });
    expect(sink.messages).toEqual([]);
  });

  it("is delivered to the others when the server refuses one recipient, and fails for good on the one refused", async () => {
    sink = await startSmtpSink({ rejectRecipients: ["alex@example.com"] });
    const report = await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from }).notify(sampleNotice());
    expect(report).toMatchObject({ status: "failed", retryable: false, attempts: [{ outcome: "accepted" }, { outcome: "rejected", statusCode: 550 }] });
    expect(sink.messages.map((message) => message.recipients)).toEqual([["sam@example.com"]]);
  });

  it("is worth retrying later when the server answers 4xx", async () => {
    sink = await startSmtpSink({ mailFromReply: "451 4.3.0 try again later" });
    const report = await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from }).notify(sampleNotice());
    expect(report).toMatchObject({ status: "failed", retryable: true, attempts: [{ outcome: "rejected", statusCode: 451 }, { outcome: "rejected", statusCode: 451 }] });
  });

  it("is worth retrying later when the server can't be reached", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const report = await createEmailNotifier({ host: "127.0.0.1", port, security: "none", from }).notify(sampleNotice());
    expect(report).toMatchObject({ status: "failed", retryable: true, attempts: [{ outcome: "network-error" }, { outcome: "network-error" }] });
  });

  it("times out when the server never greets", async () => {
    const sockets = new Set<import("node:net").Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const report = await createEmailNotifier({ host: "127.0.0.1", port, security: "none", from, timeoutMs: 300 }).notify(sampleNotice());
      expect(report).toMatchObject({ status: "failed", retryable: true, attempts: [{ outcome: "timeout" }, { outcome: "timeout" }] });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("is a final failure when the notice has no recipients", async () => {
    sink = await startSmtpSink();
    const report = await createEmailNotifier({ host: sink.host, port: sink.port, security: "none", from }).notify(sampleNotice({ recipients: [] }));
    expect(report).toMatchObject({ status: "failed", retryable: false });
    expect(sink.commands).toEqual([]);
  });
});
