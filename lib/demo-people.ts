import type { Db } from "@/db/client";
import { seedGroups } from "@/db/queries/group-routing";
import { countUsers, insertUsersIfAbsent } from "@/db/queries/users";
import type { Role } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";

/** A demo person; the passwords are public on purpose and exist only on demo databases. */
export interface DemoUser {
  email: string;
  name: string;
  password: string;
  roles: Role[];
}

export const DEMO_USERS: readonly DemoUser[] = [
  { email: "ada@parley.test", name: "Ada Admin", password: "ada-admin-demo", roles: ["admin"] },
  { email: "omar@parley.test", name: "Omar Operator", password: "omar-operator-demo", roles: ["operator"] },
  { email: "sam@parley.test", name: "Sam Rivera", password: "sam-assignee-demo", roles: ["assignee"] },
  { email: "priya@parley.test", name: "Priya Shah", password: "priya-assignee-demo", roles: ["assignee"] },
  { email: "lee@parley.test", name: "Lee Okafor", password: "lee-assignee-demo", roles: ["assignee", "operator"] },
];

/** The demo's teams, by the emails of their members: asks can go to a whole team. */
export const DEMO_GROUPS: Readonly<Record<string, readonly string[]>> = {
  finance: ["sam@parley.test", "priya@parley.test"],
  "on-call": ["priya@parley.test", "lee@parley.test"],
};

/** Creates the demo people that do not exist yet, and the demo groups; returns the people it created. */
export async function seedDemoUsers(db: Db): Promise<DemoUser[]> {
  const rows = await Promise.all(
    DEMO_USERS.map(async (user) => ({
      email: user.email,
      name: user.name,
      roles: user.roles,
      passwordHash: await hashPassword(user.password),
    })),
  );
  const created = new Set((await insertUsersIfAbsent(db, rows)).map((user) => user.email));
  await seedGroups(db, DEMO_GROUPS);
  return DEMO_USERS.filter((user) => created.has(user.email));
}

/**
 * What demo mode does on start: on a database with nobody in it (the first start), create the demo
 * people. A database someone already uses is left alone.
 */
export async function seedDemoUsersOnFirstStart(db: Db): Promise<DemoUser[]> {
  if ((await countUsers(db)) > 0) return [];
  return seedDemoUsers(db);
}

/** The demo sign-ins as a console table. */
export function formatDemoCredentials(users: readonly DemoUser[] = DEMO_USERS): string {
  const width = Math.max(...users.map((user) => user.email.length));
  const lines = users.map((user) => `  ${user.email.padEnd(width)}  ${user.password.padEnd(20)}  ${user.roles.join(", ")}`);
  return ["Demo sign-ins (embedded database only):", ...lines].join("\n");
}
