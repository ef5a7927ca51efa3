import { chmodSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";

/**
 * How `parley backup` asks a running server for a copy of its embedded database: over a Unix socket
 * in the data folder, which is 0700, so only the account that runs Parley reaches it — no token, no
 * port. A connection is the request; the server answers `ok <bytes>\n` and the backup, or
 * `error <why>\n`, and closes.
 */

/** Unix socket paths longer than this cannot be listened on (the kernel's `sun_path` is 108 bytes). */
const SOCKET_PATH_MAX = 100;

/** Where the server of the data folder `folder` (`PARLEY_DATA_DIR`) takes backup requests; null when its path is too long for a socket. */
export function backupSocketPath(folder: string): string | null {
  const socket = path.join(path.resolve(folder), "backup.sock");
  return Buffer.byteLength(socket) <= SOCKET_PATH_MAX ? socket : null;
}

/**
 * Serves backups of this process's embedded database at {@link backupSocketPath}: each connection gets
 * one, made by `dump`. The caller holds the data folder's lock, so a socket file left by a process that
 * is gone is removed first. Resolves once listening; `close` stops and removes the socket.
 */
export async function serveBackups(
  folder: string,
  dump: () => Promise<Uint8Array>,
  onError: (error: unknown) => void,
): Promise<{ socket: string; close(): Promise<void> } | null> {
  const socket = backupSocketPath(folder);
  if (!socket) return null;
  rmSync(socket, { force: true });
  const server = net.createServer((connection) => {
    connection.on("error", () => {});
    dump().then(
      (backup) => {
        connection.write(`ok ${backup.byteLength}\n`);
        connection.end(backup);
      },
      (error: unknown) => {
        onError(error);
        connection.end(`error ${error instanceof Error ? error.message.replaceAll("\n", " ") : String(error)}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => {
      server.off("error", reject);
      resolve();
    });
  });
  chmodSync(socket, 0o600);
  // Not a reason to keep the process running.
  server.unref();
  return {
    socket,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The server of `folder` did not give a backup: why, in words. */
export class BackupNotTakenError extends Error {}

/** Asks the server of the data folder `folder` for a backup over its socket; the bytes it sent, checked for length. */
export async function requestBackup(folder: string, timeoutMs = 10 * 60_000): Promise<Uint8Array> {
  const socket = backupSocketPath(folder);
  if (!socket) throw new BackupNotTakenError(`the data folder's path is too long for the server's backup socket: stop the server and back up again, or use a shorter PARLEY_DATA_DIR.`);
  const received = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const connection = net.createConnection(socket);
    connection.setTimeout(timeoutMs, () => connection.destroy(new BackupNotTakenError(`the server sent nothing for ${Math.round(timeoutMs / 1000)} s.`)));
    connection.on("data", (chunk: Buffer) => chunks.push(chunk));
    connection.on("end", () => resolve(Buffer.concat(chunks)));
    connection.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error instanceof BackupNotTakenError
          ? error
          : new BackupNotTakenError(
              error.code === "ENOENT" || error.code === "ECONNREFUSED"
                ? "the server is not taking backups (it started before this Parley could, or it is still starting): try again in a moment, or stop it and back up."
                : error.message,
            ),
      ),
    );
  });
  const lineEnd = received.indexOf(0x0a);
  const header = lineEnd < 0 ? received.toString("utf8") : received.subarray(0, lineEnd).toString("utf8");
  const ok = /^ok (\d+)$/.exec(header);
  if (!ok) throw new BackupNotTakenError(header.startsWith("error ") ? `the server could not take it: ${header.slice(6)}` : "the server's answer was cut short.");
  const backup = received.subarray(lineEnd + 1);
  if (backup.byteLength !== Number(ok[1])) throw new BackupNotTakenError(`the server's answer was cut short (${backup.byteLength} of ${ok[1]} bytes).`);
  return new Uint8Array(backup);
}
