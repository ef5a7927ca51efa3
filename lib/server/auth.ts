import { Auth, setEnvDefaults } from "@auth/core";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import { encode } from "next-auth/jwt";
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
import { log } from "@/lib/log";
import { clientAddress } from "./client-address";
import { ANSWER_ONLY_CLAIM, sessionLifetimeSeconds } from "./session-token";
import { type OidcIdentity, readUserInfo, resolveOidcIdentity } from "@/lib/auth/oidc-identity";
import { DEACTIVATED_SIGN_IN, OIDC_CANCELLED, OIDC_EMAIL_UNCONFIRMED, OIDC_NO_EMAIL, OIDC_PROVIDER_ID, TOO_MANY_SIGN_INS } from "./auth-constants";

declare module "@auth/core/types" {
  interface User {
    /** Single sign-on only: who the provider says this is (lib/auth/oidc-identity.ts). */
    oidcIdentity?: OidcIdentity;
  }
}

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
    // Where app/api/auth/[...nextauth] is, whatever path AUTH_URL has: its route handler and signIn() agree.
    basePath: "/api/auth",
    trustHost: true,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    // next-auth re-signs the token for a whole session lifetime on every read of its session endpoint:
    // a session from an answer link keeps the end its link gave it instead.
    jwt: { encode: (params) => encode({ ...params, maxAge: sessionLifetimeSeconds(params.token, params.maxAge ?? SESSION_MAX_AGE_SECONDS) }) },
    pages: { signIn: "/login", error: "/login" },
    logger: {
      // A wrong password is an everyday event shown to the person, not a server error worth a stack trace.
      error(error) {
        const { type, cause } = error as { type?: string; cause?: Record<string, unknown> };
        if (type === "CredentialsSignin") return;
        // Single sign-on cancelled at the provider, or refused for want of an account: everyday events
        // too, each told to the person on the sign-in page, so one line each here.
        if (type === OIDC_CANCELLED) {
          log.warn("Single sign-on: the provider sent the person back without signing them in (cancelled or refused there).");
          return;
        }
        if (type === "AccessDenied" && !cause) {
          log.warn("Single sign-on: refused an email that has no Parley account.");
          return;
        }
        log.error({ err: error }, "Signing in failed.");
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
              // The email comes from the ID token, else from UserInfo; whether it may sign in is the signIn callback's call.
              async profile(claims: Record<string, unknown>, tokens: { access_token?: string }) {
                const subject = String(claims.sub);
                const oidcIdentity = await resolveOidcIdentity(claims, async () => {
                  if (!tokens.access_token) throw new Error("the token response has no access token");
                  return readUserInfo(oidc.issuer, oidc.clientId, tokens.access_token, subject);
                });
                return {
                  id: subject,
                  name: typeof claims.name === "string" ? claims.name : null,
                  email: oidcIdentity.status === "confirmed" ? oidcIdentity.email : null,
                  oidcIdentity,
                };
              },
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
      // Only an email the provider says, with `email_verified: true`, that it verified: else anyone who
      // could put an admin's email on an account at the provider would sign in as that admin.
      async signIn({ account, user }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        const identity = user.oidcIdentity ?? { status: "no_email" };
        if (identity.status === "no_email") return `/login?error=${OIDC_NO_EMAIL}`;
        if (identity.status === "unconfirmed") return `/login?error=${OIDC_EMAIL_UNCONFIRMED}`;
        const person = await findUserByEmail(await getDb(), identity.email);
        if (person?.deactivatedAt) return `/login?error=${DEACTIVATED_SIGN_IN}`;
        return Boolean(person);
      },
      async jwt({ token, user, account }) {
        if (account?.provider === OIDC_PROVIDER_ID && user?.oidcIdentity?.status === "confirmed") {
          const person = await findUserByEmail(await getDb(), user.oidcIdentity.email);
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
        } else if (!account && token[ANSWER_ONLY_CLAIM] !== undefined && sessionLifetimeSeconds(token, SESSION_MAX_AGE_SECONDS) === 0) {
          // An answer link's session at the end of its window (or with none): cleared, never renewed.
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

/**
 * Answers a request to next-auth's routes (app/api/auth/[...nextauth]) as {@link handlers} would, but
 * for the plain Request given, at the address it names. next-auth's own handlers rebuild the request
 * as a NextRequest, which turns a loopback host (127.0.0.1) into `localhost`: single sign-on then
 * asks the provider for a 127.0.0.1 callback and exchanges the code naming a localhost one, which
 * the provider refuses, and sends the person on to localhost, where they have no cookies (next-auth
 * #12321).
 */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const config = buildConfig();
  setEnvDefaults(process.env, config, true);
  return Auth(request, config);
}
