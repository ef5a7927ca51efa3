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

/**
 * The secret that signs session cookies: `AUTH_SECRET`, or in demo mode one generated on first start
 * and kept in the data folder so that sessions survive a restart.
 */
export function authSecret(env: Environment = process.env): string {
  const configured = env.AUTH_SECRET?.trim();
  if (configured) return configured;
  if (!isDemoMode(env)) {
    throw new Error("AUTH_SECRET is not set. With DATABASE_URL, set AUTH_SECRET to a long random string (e.g. `openssl rand -base64 33`).");
  }
  const directory = dataDirectory(env);
  const file = path.join(directory, "auth-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(directory, { recursive: true });
    const secret = randomBytes(33).toString("base64");
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  }
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
