import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { loadInbox } from "@/lib/inbox";
import { createRegistry } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createTeamFixture, type TeamFixture } from "./team-fixture";

describe.each(DATABASE_KINDS)("a question delegated while its person is away (%s)", (kind) => {
  let fixture: TeamFixture;
  afterEach(async () => fixture?.database.close());

  it("says 'delegated to you' in the delegate's inbox only, not to another person it is put to", async () => {
    fixture = await createTeamFixture(kind);
    await fixture.setPerson(fixture.fatima.id, { away: true, delegateId: fixture.olu.id });
    const { questionId } = await fixture.ask(fixture.fatima.id);
    // Femi may answer it too, as an escalation step that widened the wait would let him.
    await fixture.database.db.execute(sql`update slots set candidate_ids = array[${fixture.femi.id}]::uuid[] where id = (select slot_id from asks where id = ${questionId})`);
    const registry = createRegistry({ apps: [] });
    const now = new Date();

    const olu = await loadInbox(fixture.database.db, fixture.olu.id, "assigned", now, { registry });
    expect(olu.rows.find((row) => row.id === questionId)?.delegatedFrom).toBe("Fatima Finance");
    const femi = await loadInbox(fixture.database.db, fixture.femi.id, "candidates", now, { registry });
    const row = femi.rows.find((each) => each.id === questionId);
    expect(row).toBeDefined();
    expect(row?.delegatedFrom).toBeNull();
  });
});
