import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { httpRefusalOf } from "@/tests/support/http-refusal";

describe.each(DATABASE_KINDS)("a key's asks on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("another key's ask is not found, to read or to cancel", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.otherKey, { to: "ada@parley.test", title: "Theirs" });
    expect(await httpRefusalOf(fixture.service.get(fixture.key, ask.id))).toMatchObject({ code: "not_found", status: 404 });
    await expect(fixture.service.cancel(fixture.key, ask.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(fixture.service.get(fixture.key, "not-an-id")).rejects.toMatchObject({ code: "not_found" });
    expect((await fixture.service.get(fixture.otherKey, ask.id)).status).toBe("open");
  });

  it("are listed newest first, a page at a time, only the key's own, and by status", async () => {
    fixture = await createAskFixture(kind);
    const made: string[] = [];
    for (let index = 1; index <= 5; index++) {
      made.push((await fixture.service.create(fixture.key, { to: "ada@parley.test", title: `Question ${index}` })).ask.id);
      fixture.advance(1_000);
    }
    await fixture.service.create(fixture.otherKey, { to: "ada@parley.test", title: "Not mine" });
    await fixture.service.cancel(fixture.key, made[1]!);

    const first = await fixture.service.list(fixture.key, { limit: 2 });
    expect(first.data.map((ask) => ask.title)).toEqual(["Question 5", "Question 4"]);
    const second = await fixture.service.list(fixture.key, { limit: 2, cursor: first.next_cursor });
    expect(second.data.map((ask) => ask.title)).toEqual(["Question 3", "Question 2"]);
    const last = await fixture.service.list(fixture.key, { limit: 2, cursor: second.next_cursor });
    expect(last).toMatchObject({ data: [{ title: "Question 1" }], next_cursor: null });

    expect((await fixture.service.list(fixture.key, { status: "open" })).data.map((ask) => ask.title)).toEqual(["Question 5", "Question 4", "Question 3", "Question 1"]);
    expect((await fixture.service.list(fixture.key, { status: "nothing" })).data.map((ask) => ask.title)).toEqual(["Question 2"]);
  });

  it("refuse a cursor or a limit the API did not give out", async () => {
    fixture = await createAskFixture(kind);
    await expect(fixture.service.list(fixture.key, { cursor: "bm9wZQ" })).rejects.toMatchObject({ code: "invalid_input", path: "cursor" });
    // Dates JavaScript reads and PostgreSQL cannot store: refused as forged, not failed on.
    for (const at of ["-005000-01-01T00:00:00.000Z", "+200000-01-01T00:00:00.000Z"]) {
      const forged = Buffer.from(`${at}|00000000-0000-4000-8000-000000000000`).toString("base64url");
      await expect(fixture.service.list(fixture.key, { cursor: forged })).rejects.toMatchObject({ code: "invalid_input", path: "cursor" });
    }
    await expect(fixture.service.list(fixture.key, { limit: 0 })).rejects.toMatchObject({ code: "invalid_input", path: "limit" });
    await expect(fixture.service.list(fixture.key, { limit: 101 })).rejects.toMatchObject({ code: "invalid_input", path: "limit" });
  });
});
