import { getAppRuntime } from "@/lib/app-runtime";
import { getDb } from "@/lib/database";
import { subscribeLiveEvents } from "@/lib/live-events";
import { type AskService, createAskService } from "./asks";

const SERVICE_KEY = Symbol.for("parley.ask-service");
type GlobalWithService = typeof globalThis & { [SERVICE_KEY]?: Promise<AskService> };

/** This process's ask service, over the app's database and runtime; live changes wake waiting requests. */
export function getAskService(): Promise<AskService> {
  const store = globalThis as GlobalWithService;
  store[SERVICE_KEY] ??= (async () => {
    const [{ runtime, notices }, db] = await Promise.all([getAppRuntime(), getDb()]);
    return createAskService({ db, runtime, baseUrl: notices.baseUrl, subscribe: (handler) => subscribeLiveEvents(handler) });
  })().catch((error: unknown) => {
    delete store[SERVICE_KEY];
    throw error;
  });
  return store[SERVICE_KEY];
}
