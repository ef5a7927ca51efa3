// Where `npm start` listens. Kept apart from start.mjs so that a test can ask it.
import { hostname as machineName } from "node:os";

/** The loopback address demo mode listens on unless told otherwise. */
export const DEMO_HOSTNAME = "127.0.0.1";

/** Whether the arguments for `next start` already name an address (`-H`, `--hostname`). */
function namesHostname(args) {
  return args.some((arg) => arg === "-H" || arg === "--hostname" || arg.startsWith("--hostname=") || (arg.startsWith("-H") && arg.length > 2));
}

/**
 * The extra `next start` arguments and what to tell the person starting Parley. In demo mode (no
 * `DATABASE_URL`) the sign-in page shows the demo people's passwords, admin's included, so Parley
 * listens on loopback only, unless `--hostname`/`-H` is given or `HOSTNAME` names an address. A
 * `HOSTNAME` that is just this machine's name is not taken as a choice: shells and containers set it
 * so by themselves. With a database, `next start` listens where it always does (every interface).
 *
 * @param {Record<string, string | undefined>} env
 * @param {string[]} args the arguments given to `npm start`, passed on to `next start`
 * @param {string} [ownName] this machine's name
 * @returns {{ args: string[], message: string | null }}
 */
export function listenAddress(env, args, ownName = machineName()) {
  if (env.DATABASE_URL?.trim()) return { args: [], message: null };
  const port = env.PORT?.trim() || "3000";
  if (namesHostname(args)) {
    return { args: [], message: "Parley (demo mode): listening where --hostname says. Anyone who can reach that address sees the demo passwords on the sign-in page." };
  }
  const chosen = env.HOSTNAME?.trim();
  if (chosen && chosen !== ownName) {
    return {
      args: ["-H", chosen],
      message: `Parley (demo mode): listening on ${chosen}:${port}, as HOSTNAME says. Anyone who can reach that address sees the demo passwords on the sign-in page.`,
    };
  }
  return {
    args: ["-H", DEMO_HOSTNAME],
    message:
      `Parley (demo mode): listening on http://${DEMO_HOSTNAME}:${port} only (this machine), because the sign-in page shows the demo passwords. ` +
      "To be reachable from elsewhere, start with HOSTNAME=0.0.0.0 (or `npm start -- --hostname 0.0.0.0`).",
  };
}
