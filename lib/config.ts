import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Environment variables, passed in so that tests can give their own. */
export type Environment = Record<string, string | undefined>;

/**
 * Demo mode: no `DATABASE_URL`, so Parley runs on its embedded database with demo people whose
 * passwords are printed and shown on the sign-in page. Never on a real server's database.
 */
export function isDemoMode(env: Environment = process.env): boolean {
  return !env.DATABASE_URL?.trim();
}

/** The folder for the embedded database and the demo's generated secret. */
export function dataDirectory(env: Environment = process.env): string {
  return path.resolve(/*turbopackIgnore: true*/ env.PARLEY_DATA_DIR?.trim() || ".data");
}

/** The shortest session secret Parley accepts: 32 characters (`openssl rand -base64 33` gives 44). */
export const MIN_AUTH_SECRET_LENGTH = 32;

/** A secret long enough to sign session cookies, or an error naming where it came from. */
function longEnough(secret: string, source: string): string {
  if (secret.length >= MIN_AUTH_SECRET_LENGTH) return secret;
  throw new Error(
    `${source} is too short (${secret.length} character${secret.length === 1 ? "" : "s"}): a session secret must be at least ${MIN_AUTH_SECRET_LENGTH} characters, ` +
      "or anyone could guess it and sign in as anyone. Set it to a long random string (e.g. `openssl rand -base64 33`).",
  );
}

/**
 * Checks the configured session secret without touching the disk: `AUTH_SECRET` long enough when it
 * is set, and set at all on a real database. The server calls it first thing at start (lib/startup.ts).
 */
export function checkAuthSecret(env: Environment = process.env): void {
  const configured = env.AUTH_SECRET?.trim();
  if (configured) {
    longEnough(configured, "AUTH_SECRET");
    return;
  }
  if (!isDemoMode(env)) {
    throw new Error("AUTH_SECRET is not set. With DATABASE_URL, set AUTH_SECRET to a long random string (e.g. `openssl rand -base64 33`).");
  }
}

/**
 * The secret that signs session cookies: `AUTH_SECRET`, or in demo mode one generated on first start
 * and kept in the data folder so that sessions survive a restart. Either must be at least
 * {@link MIN_AUTH_SECRET_LENGTH} characters.
 */
export function authSecret(env: Environment = process.env): string {
  checkAuthSecret(env);
  const configured = env.AUTH_SECRET?.trim();
  if (configured) return configured;
  const directory = dataDirectory(env);
  const file = path.join(directory, "auth-secret");
  try {
    return longEnough(readFileSync(file, "utf8").trim(), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(directory, { recursive: true });
    const secret = randomBytes(33).toString("base64");
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
}

/** The shortest metrics token Parley accepts: anyone holding it reads how much work there is and of which workflows. */
export const MIN_METRICS_TOKEN_LENGTH = 16;

/**
 * The bearer token Prometheus sends for `/api/metrics` (`PARLEY_METRICS_TOKEN`): null when unset
 * (metrics are off), an error naming the variable when it is too short. Checked at start (lib/startup.ts).
 */
export function metricsToken(env: Environment = process.env): string | null {
  const token = env.PARLEY_METRICS_TOKEN?.trim();
  if (!token) return null;
  if (token.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new Error(
      `PARLEY_METRICS_TOKEN is too short (${token.length} character${token.length === 1 ? "" : "s"}): it must be at least ${MIN_METRICS_TOKEN_LENGTH} characters. ` +
        "Set it to a long random string (e.g. `openssl rand -base64 24`), or unset it to turn metrics off.",
    );
  }
  return token;
}

/** OpenID Connect sign-in, switched on when issuer, client id and secret are all set. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

export function oidcConfig(env: Environment = process.env): OidcConfig | null {
  const issuer = env.AUTH_OIDC_ISSUER?.trim();
  const clientId = env.AUTH_OIDC_ID?.trim();
  const clientSecret = env.AUTH_OIDC_SECRET?.trim();
  if (!issuer || !clientId || !clientSecret) return null;
  return { issuer, clientId, clientSecret, name: env.AUTH_OIDC_NAME?.trim() || "Single sign-on" };
}

/** The address people reach Parley at, when configured: `PARLEY_PUBLIC_URL`, else `AUTH_URL` (no trailing slash). */
export function configuredPublicUrl(env: Environment = process.env): string | undefined {
  return (env.PARLEY_PUBLIC_URL?.trim() || env.AUTH_URL?.trim())?.replace(/\/+$/, "") || undefined;
}
