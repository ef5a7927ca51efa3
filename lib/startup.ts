import { findUserByEmail } from "@/db/queries/users";
import { getAppRuntime } from "@/lib/app-runtime";
import { checkAuthSecret, isDemoMode, metricsToken } from "@/lib/config";
import { getDatabase } from "@/lib/database";
import { DEMO_API_KEY_NAME, ensureDemoApiKey, formatDemoApiKey } from "@/lib/demo-api-key";
import { DEMO_USERS, formatDemoCredentials, seedDemoUsersOnFirstStart } from "@/lib/demo-people";
import { firstAdminSetting, prepareFirstAdmin } from "@/lib/first-admin";
import { checkWorkflowChangesAtStart } from "@/lib/workflow-changes";
import { describeMissingDependencyPatches, missingDependencyPatches } from "@/scripts/dependency-patches.mjs";

/**
 * Everything a Parley process does before serving: check that the dependency patches in patches/ are
 * applied (in the process's folder, the project's: `npm start` and `next start` run there) and that
 * the session secret (and a metrics token, when set) is long enough (before any database is touched), open the
 * database, apply the platform's and the registered apps' migrations, resolve the model and start the
 * worker; keep the workflow definitions it runs and warn of runs parked on an earlier one that a
 * changed workflow breaks (lib/workflow-changes.ts); on a real database with nobody in it, add the first admin the environment names
 * (PARLEY_ADMIN_EMAIL, lib/first-admin.ts); in demo mode, on first start, create the demo people and let each registered app start its
 * demo runs, make the demo API key when there is no live one, and print how to sign in and the key.
 */
export async function prepareServer(log: (line: string) => void = console.log): Promise<void> {
  const unpatched = describeMissingDependencyPatches(missingDependencyPatches(process.cwd()));
  if (unpatched) throw new Error(unpatched);
  checkAuthSecret();
  metricsToken();
  const firstAdmin = firstAdminSetting();
  const database = await getDatabase();
  const { runtime, model, registry } = await getAppRuntime();
  log(`Parley: agents run on ${model.label}.`);
  log(
    registry.entries.length > 0
      ? `Parley: running ${registry.entries.map((entry) => entry.label).join(", ")} (parley.config.ts).`
      : "Parley: no workflows are registered in parley.config.ts, so nothing will ask anyone until one is.",
  );
  // Keeps the definitions this deploy runs and warns of runs parked on an earlier one that a change breaks; it never stops the start.
  await checkWorkflowChangesAtStart(database.db, registry.workflows, (line) => console.warn(line));
  if (!isDemoMode()) {
    await prepareFirstAdmin(database.db, firstAdmin, log);
    log("Parley: using PostgreSQL from DATABASE_URL; migrations applied.");
    return;
  }
  const created = await seedDemoUsersOnFirstStart(database.db);
  if (created.length > 0) {
    log(`Parley: created ${created.length} demo people in the embedded database.`);
    const people = new Map<string, { id: string }>();
    for (const person of DEMO_USERS) {
      const found = await findUserByEmail(database.db, person.email);
      if (found) people.set(person.email, { id: found.id });
    }
    for (const app of registry.apps) {
      const line = await app.seedDemo?.({ db: database.db, runtime, people });
      if (line) log(`Parley (${app.name}): ${line}`);
    }
  }
  const admin = DEMO_USERS.find((person) => person.roles.includes("admin"));
  const by = admin ? ((await findUserByEmail(database.db, admin.email))?.id ?? null) : null;
  const demoKey = await ensureDemoApiKey(database.db, by);
  if (demoKey.created) log(`Parley: created the demo API key “${DEMO_API_KEY_NAME}” (Admin → API keys).`);
  log(formatDemoCredentials());
  log(formatDemoApiKey(demoKey.secret));
}

/** {@link prepareServer}, or — when the configuration is wrong — the reason on the console and exit code 1. */
export async function prepareServerOrExit(): Promise<void> {
  try {
    await prepareServer();
  } catch (error) {
    console.error(`Parley could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
