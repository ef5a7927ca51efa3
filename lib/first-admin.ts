import type { Db } from "@/db/client";
import { countUsers, insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import type { Environment } from "@/lib/config";
import { passwordSchema } from "@/lib/invites";
import { personEmailSchema, personNameSchema } from "@/lib/people";
import { recordPersonChanges } from "@/lib/person-changes";

/** Who the first admin of a new database is to be: `PARLEY_ADMIN_EMAIL`, `PARLEY_ADMIN_PASSWORD` and, optionally, `PARLEY_ADMIN_NAME`. */
export interface FirstAdmin {
  email: string;
  password: string;
  name: string;
}

/** The name the first admin gets when `PARLEY_ADMIN_NAME` is not set (they can be renamed like anyone). */
const DEFAULT_NAME = "Admin";

/**
 * The first admin asked for in the environment, or null when `PARLEY_ADMIN_EMAIL` is not set; an
 * error naming the variable when it is malformed, or when the password is missing or would not be
 * taken on the invite page. Checked at start, before the database is touched (lib/startup.ts).
 */
export function firstAdminSetting(env: Environment = process.env): FirstAdmin | null {
  const rawEmail = env.PARLEY_ADMIN_EMAIL?.trim();
  const password = env.PARLEY_ADMIN_PASSWORD ?? "";
  if (!rawEmail) {
    if (password) throw new Error("PARLEY_ADMIN_PASSWORD is set without PARLEY_ADMIN_EMAIL: set both to add the first admin, or neither.");
    return null;
  }
  const email = personEmailSchema.safeParse(rawEmail);
  if (!email.success) throw new Error(`PARLEY_ADMIN_EMAIL is not an email address ("${rawEmail}").`);
  if (!password) throw new Error("PARLEY_ADMIN_EMAIL is set without PARLEY_ADMIN_PASSWORD: the first admin signs in with that password.");
  const checked = passwordSchema.safeParse(password);
  if (!checked.success) throw new Error(`PARLEY_ADMIN_PASSWORD will not do: ${checked.error.issues[0]?.message ?? "choose another."}`);
  const name = personNameSchema.safeParse(env.PARLEY_ADMIN_NAME?.trim() || DEFAULT_NAME);
  if (!name.success) throw new Error(`PARLEY_ADMIN_NAME will not do: ${name.error.issues[0]?.message ?? "choose another."}`);
  return { email: email.data, password, name: name.data };
}

/** What {@link addFirstAdmin} did. */
export type FirstAdminOutcome = { status: "added"; person: User } | { status: "not_empty" };

/**
 * Adds `admin` as an admin who signs in with their password, on a database with nobody in it; a
 * database with anyone in it is left alone, so the setting may stay after the first start. Several
 * processes starting together on one empty database add them once: the email is unique, and the
 * process whose insert found it taken adds nobody.
 */
export async function addFirstAdmin(db: Db, admin: FirstAdmin, now: Date = new Date()): Promise<FirstAdminOutcome> {
  if ((await countUsers(db)) > 0) return { status: "not_empty" };
  const passwordHash = await hashPassword(admin.password);
  return db.transaction(async (tx) => {
    if ((await countUsers(tx)) > 0) return { status: "not_empty" } as const;
    const [person] = await insertUsersIfAbsent(tx, [{ name: admin.name, email: admin.email, roles: ["admin"], passwordHash, createdAt: now }]);
    if (!person) return { status: "not_empty" } as const;
    await recordPersonChanges(tx, [{ personId: person.id, byId: null, kind: "added", data: { name: person.name, email: person.email, roles: person.roles, groups: [], from: "PARLEY_ADMIN_EMAIL" }, at: now }]);
    return { status: "added", person } as const;
  });
}

/**
 * What a server on a real database (`DATABASE_URL`) does at start about its first admin: add the one
 * the environment names to a database with nobody in it, and say so; on a database with nobody in it
 * and no first admin named, say how to add one.
 */
export async function prepareFirstAdmin(db: Db, admin: FirstAdmin | null, log: (line: string) => void): Promise<void> {
  if (!admin) {
    if ((await countUsers(db)) === 0) {
      log(
        "Parley: nobody is in this database yet. To add the first admin, set PARLEY_ADMIN_EMAIL and PARLEY_ADMIN_PASSWORD and start again; " +
          "they then add everyone else on Admin → People (docs/operations.md).",
      );
    }
    return;
  }
  const outcome = await addFirstAdmin(db, admin);
  if (outcome.status === "added") {
    log(`Parley: added the first admin, ${outcome.person.email} (PARLEY_ADMIN_EMAIL), who signs in with PARLEY_ADMIN_PASSWORD.`);
  }
}
