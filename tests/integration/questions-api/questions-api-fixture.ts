import { findApiAskById } from "@/db/queries/api-asks";
import type { ApiKey } from "@/db/schema";
import { authenticateApiKey, createApiKey } from "@/lib/api-keys";
import { createQuestionsApi, type QuestionsApi } from "@/lib/questions-api/questions-api";
import { createRegistry } from "@/lib/registry";
import type { DatabaseKind } from "@/tests/support/databases";
import { type AskFixture, BASE_URL, createAskFixture } from "../asks/ask-fixture";

/** The ask fixture (people, an agent key, the ApiAsk runtime) with the person's API over it and a personal token each for Ada and Bo. */
export interface QuestionsApiFixture extends AskFixture {
  api: QuestionsApi;
  /** Ada's personal token, and Bo's. */
  adaToken: ApiKey;
  boToken: ApiKey;
  /** How many times the API said an answer or a closing was committed. */
  settled: { count: number };
  /** Asks over the agent key and returns the question it put (asks to Ada unless told otherwise). */
  ask(request?: Record<string, unknown>): Promise<{ askId: string; questionId: string }>;
}

/** A database with the person's API over the platform's ApiAsk; questions are put through the ask service, as an agent would. */
export async function createQuestionsApiFixture(kind: DatabaseKind): Promise<QuestionsApiFixture> {
  const fixture = await createAskFixture(kind);
  const { db } = fixture.database;
  const token = async (userId: string, name: string) => (await authenticateApiKey(db, (await createApiKey(db, { kind: "personal", name, by: userId, userId })).secret))!;
  const settled = { count: 0 };
  const api = createQuestionsApi({
    db,
    runtime: fixture.runtime,
    // No apps: the platform's own (the ApiAsk workflow) is in every registry.
    registry: createRegistry({ apps: [] }),
    baseUrl: BASE_URL,
    now: () => new Date(fixture.clock.now),
    onSettled: () => void settled.count++,
  });
  return {
    ...fixture,
    api,
    adaToken: await token(fixture.ada.id, "Ada's laptop"),
    boToken: await token(fixture.bo.id, "Bo's laptop"),
    settled,
    async ask(request = {}) {
      const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Deploy?", ...request });
      // The ask's question, as the person's inbox lists it.
      const record = await findApiAskById(db, ask.id);
      return { askId: ask.id, questionId: record!.questionId };
    },
  };
}
