import { sql } from "drizzle-orm";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { NotificationBell } from "@/components/notification-bell";
import { queryRows } from "@/db/client";
import { countUnreadNotifications } from "@/db/queries/person-notifications";
import { DATABASE_KINDS, createTestDatabase, type TestDatabase } from "@/tests/support/databases";

/** A person with `unread` unread reminders (about no question, so each one counts). */
async function personWithUnread(database: TestDatabase, unread: number): Promise<string> {
  const [person] = await queryRows<{ id: string }>(database.db, sql`insert into users (email, name, roles) values ('bell@parley.test', 'Bell', '{assignee}') returning id`);
  await database.db.execute(sql`
    insert into person_notifications (user_id, kind, data)
    select ${person!.id}::uuid, 'reminder', '{}'::jsonb from generate_series(1, ${unread})`);
  return person!.id;
}

describe.each(DATABASE_KINDS)("the bell's count (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is exact up to 99 unread", async () => {
    database = await createTestDatabase(kind);
    const person = await personWithUnread(database, 99);
    expect(await countUnreadNotifications(database.db, person)).toEqual({ count: 99, atLeast: false });
  });

  it("stops at 99 past that and says there are more, without reading them all", async () => {
    database = await createTestDatabase(kind);
    const person = await personWithUnread(database, 2_000);
    const unread = await countUnreadNotifications(database.db, person);
    expect(unread).toEqual({ count: 99, atLeast: true });

    const bell = renderToStaticMarkup(createElement(NotificationBell, { unread }));
    expect(bell).toContain('aria-label="Notifications, more than 99 unread"');
    expect(bell).toContain(">99+</span>");
  });
});
