import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture, DEPLOY_SCHEMA } from "./ask-fixture";

describe.each(DATABASE_KINDS)("answers an ask's schema refuses on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("are refused on the field, in the schema's own words, and the ask stays open", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Deploy?", response_schema: DEPLOY_SCHEMA });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    const refused = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { form: { decision: "approve", window_hours: "40" } } });
    expect(refused).toMatchObject({ status: "refused", fieldErrors: { window_hours: ["Between 1 and 12 hours, please."] }, attempt: "attempt 2 of 3" });
    expect(await fixture.service.get(fixture.key, ask.id)).toMatchObject({ status: "open", attempts: { allowed: 3, refused: 1 } });
  });

  it("close it with nothing, reason refused, once the attempts run out", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Deploy?", response_schema: DEPLOY_SCHEMA, attempts: 2 });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    for (let attempt = 0; attempt < 2; attempt++) {
      await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { form: { decision: "maybe", window_hours: "4" } } });
    }
    expect(await fixture.service.get(fixture.key, ask.id)).toMatchObject({ status: "nothing", reason: "refused", answer: null, answered_by: null });
  });
});
