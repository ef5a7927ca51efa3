import bcrypt from "bcryptjs";

// 10 rounds: ~70 ms per check on these machines, slow enough for stored hashes, quick enough to sign in.
const ROUNDS = 10;

/** Hashes a password for storage. */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, ROUNDS);
}

/** Checks a password against a stored hash; false when there is no hash (an OpenID-only person). */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) return false;
  return bcrypt.compare(password, hash);
}
