import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findUserByEmail } from "@/db/queries/users";
import { authenticateApiKey, createApiKey } from "@/lib/api-keys";
import { getAppRuntime, stopAppRuntime } from "@/lib/app-runtime";
import { getAskService } from "@/lib/asks/configured";
import { closeDatabase, getDatabase } from "@/lib/database";
import { prepareServer } from "@/lib/startup";
import { GLOBAL_SECRET, startReceiver, verifiedEvent } from "./ask-events-support";

// The ask service is cached on globalThis over the runtime this test stops: forget it with the runtime.
const SERVICE_KEY = Symbol.for("parley.ask-service");

afterEach(async () => {
  await stopAppRuntime();
  await closeDatabase();
  delete (globalThis as Record<symbol, unknown>)[SERVICE_KEY];
  vi.unstubAllEnvs();
});

describe("the app as it runs", () => {
  it("sends an ask's end to its callback_url and to PARLEY_WEBHOOK_URL, from the drainer it starts", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parley-ask-events-"));
    const callback = await startReceiver();
    const global = await startReceiver();
    try {
      vi.stubEnv("DATABASE_URL", "");
      vi.stubEnv("PARLEY_DATA_DIR", dataDir);
      vi.stubEnv("PARLEY_WEBHOOK_URL", global.url);
      vi.stubEnv("PARLEY_WEBHOOK_SECRET", GLOBAL_SECRET);
      await prepareServer(() => {});
      const { runtime } = await getAppRuntime();
      const { db } = await getDatabase();
      const admin = await findUserByEmail(db, "ada@parley.test");
      const made = await createApiKey(db, { kind: "agent", name: "Release bot", by: admin!.id });
      const key = (await authenticateApiKey(db, made.secret))!;
      const service = await getAskService();

      const { ask } = await service.create(key, { to: "sam@parley.test", title: "Ship it?", callback_url: callback.url });
      const sam = await findUserByEmail(db, "sam@parley.test");
      const question = (await runtime.questionsFor(sam!.id)).find((each) => each.taskId === ask.id);
      await runtime.submitAnswer({ questionId: question!.id, by: sam!.id, answer: { text: { answer: "Ship it Friday." } } });

      await expect.poll(() => callback.received.length, { timeout: 10_000 }).toBe(1);
      const view = await service.get(key, ask.id);
      expect(verifiedEvent(made.webhookSecret!, callback.received[0]!)).toEqual({ type: "ask.answered", timestamp: view.answered_at, data: view });
      const askEvents = () => global.received.filter((webhook) => webhook.headers["webhook-id"] === `${ask.id}:ask-answered`);
      await expect.poll(() => askEvents().length, { timeout: 10_000 }).toBe(1);
      expect(verifiedEvent(GLOBAL_SECRET, askEvents()[0]!)).toMatchObject({ type: "ask.answered", data: { id: ask.id, answer: "Ship it Friday.", answered_by: { email: "sam@parley.test" } } });
    } finally {
      await stopAppRuntime();
      await closeDatabase();
      await callback.close();
      await global.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
