import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

/** The attacker's shape: on a backtracking engine each extra character of a failing answer doubles the time. */
const PATTERN = "^(?:a|a)+$";
const FAILING = `${"a".repeat(27)}!`;
/** Far above a linear-time check and far below the 7 s one such request held a server for. */
const BOUND_MS = 1000;

const schemaWith = (code: Record<string, unknown>) => ({ type: "object", properties: { code: { type: "string", pattern: PATTERN, ...code } }, required: ["code"] });

describe.each(DATABASE_KINDS)("an ask whose pattern would backtrack, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("is refused on its default at once, naming the default", async () => {
    fixture = await createAskFixture(kind);
    const started = performance.now();
    const creating = fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Code?", response_schema: schemaWith({ default: FAILING }) });
    await expect(creating).rejects.toMatchObject({ code: "unsupported_schema", path: "response_schema.properties.code.default" });
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
  });

  it("judges a person's failing answer at once and stays open for a right one", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Code?", response_schema: schemaWith({}) });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    const started = performance.now();
    const refused = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { form: { code: FAILING } } });
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(refused).toMatchObject({ status: "refused", fieldErrors: { code: [`Must match the pattern ${PATTERN}`] } });
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { form: { code: "aaa" } } });
    expect(await fixture.service.get(fixture.key, ask.id)).toMatchObject({ status: "answered", answer: { code: "aaa" } });
  });
});
