// The part of oidc-provider (which ships no types) the end-to-end tests' OpenID provider uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export interface ProviderContext {
    oidc: {
      client: { clientId: string };
      session: { accountId: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
  }

  export interface Account {
    accountId: string;
    claims(use: "id_token" | "userinfo", scope: string): Promise<Record<string, unknown>>;
  }

  export interface Configuration {
    clients: Array<Record<string, unknown>>;
    claims: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    cookies?: { keys: string[] };
    findAccount(ctx: ProviderContext, id: string): Promise<Account | undefined>;
    loadExistingGrant?(ctx: ProviderContext): Promise<Grant | undefined>;
    features?: Record<string, unknown>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    Grant: { new (fields: { clientId: string; accountId: string }): Grant; find(id: string): Promise<Grant | undefined> };
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
