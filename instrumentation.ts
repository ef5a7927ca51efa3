/**
 * Runs once when the Parley server starts (not during `next build`): open the database, apply
 * migrations, and in demo mode create the demo people, so the first request finds everything ready.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { prepareServer } = await import("./lib/startup");
  await prepareServer();
}
