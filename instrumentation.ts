/**
 * Runs once when the Parley server starts (not during `next build`): open the database, apply
 * migrations, start the worker, and in demo mode create the demo people — so the first request finds
 * everything ready. A configuration mistake stops the server here with a message saying what to set.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // The log first (lib/log.ts): a malformed PARLEY_LOG_* stops the start, and a JSON log takes what
  // Next.js and libraries print with console too, so every line after this one is JSON and scrubbed.
  const logging = await import("./lib/log");
  try {
    logging.checkLogSettings();
  } catch (error) {
    console.error(`Parley could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  if (logging.logSettings().format === "json") logging.routeConsoleToLog();
  // Tracing before anything is traced (lib/server/tracing.ts): on only when an OTLP endpoint is set.
  await (await import("./lib/server/tracing")).startTracing();
  // Before the first request: the sign-in throttle counts by the socket's address.
  (await import("./lib/server/client-address")).recordClientAddresses();
  const { prepareServerOrExit } = await import("./lib/startup");
  await prepareServerOrExit();
  // On the embedded database, `parley backup` asks this server for a consistent copy.
  await (await import("./lib/server/backups")).serveBackupsOfThisServer();
  // Told to leave SIGTERM to Parley (npm start does): finish the jobs in hand and end long-polls before exiting.
  if (process.env.NEXT_MANUAL_SIG_HANDLE) {
    await (await import("./lib/server/shutdown")).stopGracefullyOnSignals().catch((error: unknown) => {
      logging.log.error(`Parley could not start: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
  }
}
