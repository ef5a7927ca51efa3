import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { findUserByEmail } from "@/db/queries/users";
import { recordSignIn } from "@/lib/people";
import { verifyPassword } from "@/lib/auth/password";
import { endSession, newSessionId, SESSION_ID_CLAIM, SESSION_MAX_AGE_SECONDS } from "@/lib/auth/session-person";
import { isSessionEnded } from "@/db/queries/sessions";
import { isUuid } from "@/lib/ids";
import { authSecret, oidcConfig } from "@/lib/config";
import { forgetOldSignInFailures, recordFailedSignIn, recordSuccessfulSignIn, signInBlock } from "@/lib/auth/sign-in-throttle";
import { DEACTIVATED_SIGN_IN, OIDC_PROVIDER_ID, TOO_MANY_SIGN_INS } from "./auth-constants";
import { clientAddress } from "./client-address";

/** The right password for a deactivated person: said plainly, not as a wrong password. */
class DeactivatedSignIn extends CredentialsSignin {
  override code = DEACTIVATED_SIGN_IN;
}

/** Too many wrong passwords for this account or from this address: refused, right password or not, for a while. */
export class TooManySignIns extends CredentialsSignin {
  override code = TOO_MANY_SIGN_INS;
  constructor(readonly retryAfterMinutes: number) {
    super();
  }
}

const credentialsSchema = z.object({
  email: z.string().trim().min(1),
  password: z.string().min(1),
});

// A valid bcrypt hash of a random string, compared against when the email is unknown.
const DUMMY_HASH = "$2b$10$DFi4w0juuUJoEwQEjZw8TeBm94tmsFOFbGLsg89Ox1fi1Oy1zoqNC";

function buildConfig(): NextAuthConfig {
  const oidc = oidcConfig();
  return {
    secret: authSecret(),
    trustHost: true,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/login", error: "/login" },
    logger: {
      // A wrong password is an everyday event shown to the person, not a server error worth a stack trace.
      error(error) {
        if ((error as { type?: string }).type === "CredentialsSignin") return;
        console.error(error);
      },
    },
    providers: [
      Credentials({
        credentials: { email: { label: "Email" }, password: { label: "Password", type: "password" } },
        async authorize(raw, request) {
          const parsed = credentialsSchema.safeParse(raw);
          if (!parsed.success) return null;
          const db = await getDb();
          // Counted for unknown emails too, so the throttle does not tell which emails exist.
          const attempt = { email: parsed.data.email, address: clientAddress(request.headers) };
          const blocked = await signInBlock(db, attempt);
          if (blocked) throw new TooManySignIns(blocked.minutes);
          const user = await findUserByEmail(db, parsed.data.email);
          // Compare even when nobody has that email, so timing doesn't tell which emails exist.
          const valid = await verifyPassword(parsed.data.password, user?.passwordHash ?? DUMMY_HASH);
          if (!user || !valid) {
            const nowBlocked = await recordFailedSignIn(db, attempt);
            if (nowBlocked) throw new TooManySignIns(nowBlocked.minutes);
            return null;
          }
          await recordSuccessfulSignIn(db, attempt);
          if (user.deactivatedAt) throw new DeactivatedSignIn();
          return { id: user.id, email: user.email, name: user.name };
        },
      }),
      ...(oidc
        ? [
            {
              id: OIDC_PROVIDER_ID,
              name: oidc.name,
              type: "oidc" as const,
              issuer: oidc.issuer,
              clientId: oidc.clientId,
              clientSecret: oidc.clientSecret,
            },
          ]
        : []),
    ],
    events: {
      // Both the app's sign-out and POST /api/auth/signout come here, with the token as decoded from
      // the cookie: the session ends server-side, so a copy of the cookie is refused from now on.
      async signOut(message) {
        if (!("token" in message)) return;
        const db = await getDb();
        await endSession(db, message.token);
        // A cheap moment to forget sign-in failures that would count from zero again anyway.
        await forgetOldSignInFailures(db);
      },
    },
    callbacks: {
      // Single sign-on admits only people an admin has already added to Parley, matched by email.
      async signIn({ account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        if (!profile?.email || profile.email_verified === false) return false;
        const person = await findUserByEmail(await getDb(), profile.email);
        if (person?.deactivatedAt) return `/login?error=${DEACTIVATED_SIGN_IN}`;
        return Boolean(person);
      },
      async jwt({ token, user, account, profile }) {
        if (account?.provider === OIDC_PROVIDER_ID && profile?.email) {
          const person = await findUserByEmail(await getDb(), profile.email);
          token.sub = person?.id;
        } else if (user?.id) {
          token.sub = user.id;
        }
        // Only at sign-in: kept through next-auth's refreshes, so ending someone's sessions (a
        // deactivation) cannot be undone by refreshing an old token.
        if (account && token.sub) {
          const at = new Date();
          token.signedInAt = at.getTime();
          token[SESSION_ID_CLAIM] = newSessionId();
          await recordSignIn(await getDb(), token.sub, at);
        } else if (!account && (!isUuid(token[SESSION_ID_CLAIM]) || (await isSessionEnded(await getDb(), token[SESSION_ID_CLAIM])))) {
          // A refresh (next-auth's session endpoint) of a signed-out session, or of one without an id
          // to end it by, gives no new cookie: next-auth clears it.
          return null;
        }
        return token;
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        return session;
      },
    },
  };
}

// A config *function*: `next build` imports this module, and must not open the database or read secrets.
export const { handlers, auth, signIn, signOut } = NextAuth(() => buildConfig());
