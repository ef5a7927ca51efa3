import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

describe.each(DATABASE_KINDS)("a key's asks by status on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("are listed under answered once their question is answered, and under nothing once it ends with nothing", async () => {
    fixture = await createAskFixture(kind);
    const titles = ["To answer", "To leave open", "To end with nothing"];
    for (const title of titles) {
      await fixture.service.create(fixture.key, { to: "ada@parley.test", title });
      fixture.advance(1_000);
    }
    const byStatus = async () =>
      Object.fromEntries(
        await Promise.all((["open", "answered", "nothing"] as const).map(async (status) => [status, (await fixture!.service.list(fixture!.key, { status })).data.map((ask) => ask.title)])),
      );
    expect(await byStatus()).toEqual({ open: ["To end with nothing", "To leave open", "To answer"], answered: [], nothing: [] });

    const questions = await fixture.runtime.questionsFor(fixture.ada.id);
    const question = (title: string) => questions.find((each) => each.title === title)!;
    await fixture.runtime.submitAnswer({ questionId: question("To answer").id, by: fixture.ada.id, answer: { text: { answer: "Yes." } } });
    await fixture.runtime.closeWithNothing({ questionId: question("To end with nothing").id, reason: "non-interactive", by: fixture.ada.id });
    expect(await byStatus()).toEqual({ open: ["To leave open"], answered: ["To answer"], nothing: ["To end with nothing"] });
  });
});
