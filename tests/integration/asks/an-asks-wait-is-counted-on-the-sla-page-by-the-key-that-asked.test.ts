import { afterEach, describe, expect, it } from "vitest";
import { listOpenSlots, readSlaReport } from "@/db/queries/sla";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

describe.each(DATABASE_KINDS)("an API ask on the SLA page on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("is outstanding as asked by its key, and once answered is counted under that key", async () => {
    fixture = await createAskFixture(kind);
    await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Renew the certificate?", due_in_seconds: 600 });
    const [open] = await listOpenSlots(fixture.database.db, {}, fixture.clock.now);
    expect(open).toMatchObject({ workflow: "ApiAsk", agent: "Release bot", headline: "Renew the certificate?" });
    expect(await listOpenSlots(fixture.database.db, { agent: "Release bot" }, fixture.clock.now)).toHaveLength(1);

    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    fixture.advance(120_000);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "Yes" } } });
    const report = await readSlaReport(fixture.database.db, null, fixture.clock.now);
    expect(report.byAgent).toEqual([expect.objectContaining({ key: "Release bot", label: "Release bot" })]);
  });
});
