/**
 * Runs once when the Parley server starts (not during `next build`): open the database, apply
 * migrations, start the worker, and in demo mode create the demo people — so the first request finds
 * everything ready. A configuration mistake stops the server here with a message saying what to set.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // Before the first request: the sign-in throttle counts by the socket's address.
  (await import("./lib/server/client-address")).recordClientAddresses();
  const { prepareServerOrExit } = await import("./lib/startup");
  await prepareServerOrExit();
  // Told to leave SIGTERM to Parley (npm start does): finish the jobs in hand and end long-polls before exiting.
  if (process.env.NEXT_MANUAL_SIG_HANDLE) {
    await (await import("./lib/server/shutdown")).stopGracefullyOnSignals().catch((error: unknown) => {
      console.error(`Parley could not start: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
  }
}
