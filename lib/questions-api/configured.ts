import { getAppRuntime } from "@/lib/app-runtime";
import { getDb } from "@/lib/database";
import { createQuestionsApi, type QuestionsApi } from "./questions-api";

const API_KEY = Symbol.for("parley.questions-api");
type GlobalWithApi = typeof globalThis & { [API_KEY]?: Promise<QuestionsApi> };

/** This process's person API, over the app's database, runtime and registry; an answer wakes the worker so the run resumes at once. */
export function getQuestionsApi(): Promise<QuestionsApi> {
  const store = globalThis as GlobalWithApi;
  store[API_KEY] ??= (async () => {
    const [{ runtime, registry, notices, worker }, db] = await Promise.all([getAppRuntime(), getDb()]);
    return createQuestionsApi({ db, runtime, registry, baseUrl: notices.baseUrl, onSettled: () => worker.wake() });
  })().catch((error: unknown) => {
    delete store[API_KEY];
    throw error;
  });
  return store[API_KEY];
}
