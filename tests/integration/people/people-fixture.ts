import { insertUsersIfAbsent } from "@/db/queries/users";
import type { Role, User } from "@/db/schema";
import type { Db } from "@/db/client";
import { AppError } from "@/lib/errors";

/** People in a test database: each email once, with the roles given. */
export async function addPeople(db: Db, people: { name: string; roles: Role[] }[]): Promise<User[]> {
  return insertUsersIfAbsent(
    db,
    people.map((person) => ({ name: person.name, email: `${person.name.toLowerCase().replaceAll(" ", ".")}@parley.test`, roles: person.roles })),
  );
}

/** The AppError a call fails with (its code and message), or "accepted". */
export async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string; path?: string | undefined } | "accepted"> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message, path: error.path };
    throw error;
  }
  return "accepted";
}
