import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** Where `parley login` keeps the server and the token, and what it keeps. */
export interface TerminalConfig {
  /** The Parley server: an http(s) origin, with a path if it is served under one. */
  url: string;
  /** A personal token (`pt_…`). */
  token: string;
}

/** What the `parley` command reads from its environment. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The file `parley login` writes: `$PARLEY_CONFIG`, else `$XDG_CONFIG_HOME/parley/config.json`, else
 * `~/.config/parley/config.json`.
 */
export function configPath(env: Environment): string {
  const configured = env.PARLEY_CONFIG?.trim();
  if (configured) return path.resolve(configured);
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(homedir(), ".config");
  return path.join(base, "parley", "config.json");
}

/** The saved config is there but cannot be read as one. */
export class ConfigFileError extends Error {
  /** Stable code; branch on this, never on the message text. */
  readonly code = "config_unreadable" as const;

  constructor(file: string, why: string) {
    super(`${file} is not a Parley config (${why}): run \`parley login\` again, or remove it.`);
    this.name = "ConfigFileError";
  }
}

/** What the file holds, or undefined when there is none. */
export function readSavedConfig(file: string): Partial<TerminalConfig> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigFileError(file, (error as Error).message);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigFileError(file, "not JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new ConfigFileError(file, "not a JSON object");
  const { url, token } = parsed as Record<string, unknown>;
  return { ...(typeof url === "string" ? { url } : {}), ...(typeof token === "string" ? { token } : {}) };
}

/**
 * Saves the server and the token, readable by their owner alone (0600, in a 0700 folder). Written to
 * a new file and renamed over the old one, so the mode holds even where an older file had another,
 * and a crash never leaves half a token.
 */
export function saveConfig(file: string, config: TerminalConfig): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ url: config.url, token: config.token }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** Removes the saved config; whether there was one. */
export function removeConfig(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/**
 * A server address as typed: an http(s) URL, without a trailing slash, query or fragment; undefined
 * when it is not one.
 */
export function normaliseServerUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password) return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The server and token to use: `PARLEY_URL` and `PARLEY_TOKEN` when set, else what `parley login`
 * saved. `missing` says what to do when either is still unknown.
 */
export function resolveConnection(env: Environment): { connection: TerminalConfig } | { missing: string } {
  const file = configPath(env);
  const saved = readSavedConfig(file) ?? {};
  const url = env.PARLEY_URL?.trim() || saved.url;
  const token = env.PARLEY_TOKEN?.trim() || saved.token;
  if (!url || !token) {
    return { missing: `Not logged in to a Parley: run \`parley login\` (or set PARLEY_URL and PARLEY_TOKEN).` };
  }
  const normalised = normaliseServerUrl(url);
  if (!normalised) return { missing: `${env.PARLEY_URL?.trim() ? "PARLEY_URL" : file} names no http(s) address (${JSON.stringify(url)}).` };
  return { connection: { url: normalised, token } };
}
