import type { Db } from "@/db/client";
import { listUsers, setUserAway } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { publishLiveEvent } from "@/lib/live-events";

/** Every person (the users table, by name), as the admin pages list them. */
export function listPeople(db: Db): Promise<User[]> {
  return listUsers(db);
}

/**
 * Marks a person away (or back) and tells their open screens and every admin's. Returns the person
 * as stored, or undefined when there is no such person.
 */
export async function changeAway(db: Db, userId: string, away: boolean): Promise<User | undefined> {
  return db.transaction(async (tx) => {
    const person = await setUserAway(tx, userId, away);
    if (person) {
      await publishLiveEvent(tx, { kind: "person-away-changed", audience: { userIds: [person.id], roles: ["admin"] } });
    }
    return person;
  });
}
