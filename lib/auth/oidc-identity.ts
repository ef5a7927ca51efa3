import * as oauth from "oauth4webapi";
import { log } from "@/lib/log";

/** Claims from an ID token or a UserInfo response, as the provider sent them. */
export type OidcClaims = Record<string, unknown>;

/**
 * Who single sign-on says the person is. Only `confirmed` may sign in: the provider gave an email and
 * said, with the boolean `true`, that it verified it. Anything else could be anyone's email.
 */
export type OidcIdentity =
  | { status: "confirmed"; email: string }
  | { status: "unconfirmed"; email: string }
  | { status: "no_email" };

/**
 * The identity one set of claims gives. `email_verified` counts only as the boolean `true`: a
 * missing claim, `false`, or the string `"false"` (or `"true"`) leaves the email unconfirmed.
 */
export function identityFromClaims(claims: OidcClaims): OidcIdentity {
  const email = typeof claims.email === "string" ? claims.email.trim() : "";
  if (!email) return { status: "no_email" };
  return claims.email_verified === true ? { status: "confirmed", email } : { status: "unconfirmed", email };
}

/**
 * The identity a sign-in gives: from the ID token's claims when it carries an email, else from the
 * UserInfo response — where many providers (oidc-provider among them, by default) put `email` and
 * `email_verified` rather than in the ID token. UserInfo is read only when needed, and a failure to
 * read it counts as no email.
 */
export async function resolveOidcIdentity(idToken: OidcClaims, readUserInfo: () => Promise<OidcClaims>): Promise<OidcIdentity> {
  const fromIdToken = identityFromClaims(idToken);
  if (fromIdToken.status !== "no_email") return fromIdToken;
  let userInfo: OidcClaims;
  try {
    userInfo = await readUserInfo();
  } catch (error) {
    log.error({ err: error }, "Single sign-on: the ID token has no email and reading UserInfo failed.");
    return fromIdToken;
  }
  return identityFromClaims(userInfo);
}

/**
 * Reads the UserInfo endpoint the issuer's discovery document names, with the sign-in's access token.
 * The answer must be about the ID token's subject (OpenID Connect Core §5.3.2), else it is refused.
 */
export async function readUserInfo(issuer: string, clientId: string, accessToken: string, subject: string): Promise<OidcClaims> {
  const issuerUrl = new URL(issuer);
  // Plain http only when the issuer itself is configured so (a provider on loopback in tests).
  const insecure = { [oauth.allowInsecureRequests]: issuerUrl.protocol === "http:" };
  const server = await oauth.processDiscoveryResponse(issuerUrl, await oauth.discoveryRequest(issuerUrl, insecure));
  if (!server.userinfo_endpoint) throw new Error(`${issuer} names no UserInfo endpoint`);
  const client = { client_id: clientId };
  const response = await oauth.userInfoRequest(server, client, accessToken, insecure);
  return (await oauth.processUserInfoResponse(server, client, subject, response)) as OidcClaims;
}
