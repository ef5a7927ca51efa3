import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** A person at the provider: what it says of them, and where. */
export interface ProviderAccount {
  email?: string;
  /** Left out of the claims when undefined: a provider that does not say. */
  email_verified?: unknown;
  name: string;
  /** The email (and email_verified) only in the UserInfo response, never in the ID token. */
  emailOnlyInUserInfo?: boolean;
}

export interface OpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/**
 * A real OpenID provider (the `oidc-provider` package) on loopback, with one client — the Parley
 * whose callback is `redirectUri` — and the given accounts, signed in at its own (development) login
 * page by typing the account's id and any password. Consent is taken as given. Scope claims go in the
 * ID token too (`conformIdTokenClaims: false`), except for an account whose email is only in UserInfo.
 */
export async function startOpenIdProvider(redirectUri: string, accounts: Record<string, ProviderAccount>): Promise<OpenIdProvider> {
  let handle: RequestListener = (_request, response) => response.writeHead(503).end();
  const server = createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = "parley";
  const clientSecret = "a-client-secret-for-the-end-to-end-tests";
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"] }],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: false,
    cookies: { keys: ["the-end-to-end-tests-provider-cookie-key"] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const account = Object.hasOwn(accounts, id) ? accounts[id] : undefined;
      if (!account) return undefined;
      return {
        accountId: id,
        async claims(use) {
          const claims: Record<string, unknown> = { sub: id, name: account.name };
          if (use === "id_token" && account.emailOnlyInUserInfo) return claims;
          if (account.email !== undefined) claims.email = account.email;
          if (account.email_verified !== undefined) claims.email_verified = account.email_verified;
          return claims;
        },
      };
    },
    // No consent page: this client is the provider's own.
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  handle = provider.callback();
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => undefined),
  };
}
