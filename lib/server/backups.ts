import { dumpEmbedded } from "@/db/backup";
import { backupSocketPath, serveBackups } from "@/lib/backup-socket";
import { dataDirectory } from "@/lib/config";
import { getDatabase } from "@/lib/database";

/**
 * On the embedded database, takes `parley backup`'s requests for as long as this server runs (see
 * lib/backup-socket.ts); on PostgreSQL there is nothing to do (pg_dump backs it up). Called once at
 * start, after the database is open.
 */
export async function serveBackupsOfThisServer(log: (line: string) => void = console.log): Promise<void> {
  const database = await getDatabase();
  if (database.kind !== "pglite" || !database.pglite) return;
  const folder = dataDirectory();
  let serving;
  try {
    serving = await serveBackups(folder, () => dumpEmbedded(database.pglite!), (error) => console.error("Parley: a backup failed:", error));
  } catch (error) {
    // Serving goes on without it: a backup can still be taken with the server stopped.
    console.error(`Parley: \`parley backup\` cannot ask this server for a copy (${error instanceof Error ? error.message : String(error)}). Stop the server to back up.`);
    return;
  }
  if (!serving) log(`Parley: \`parley backup\` cannot ask this server for a copy: the path of ${backupSocketPath(folder) ?? folder} is too long for a socket. Stop the server to back up.`);
}
