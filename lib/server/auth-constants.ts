/** The provider id of OpenID Connect sign-in, when it is configured. */
export const OIDC_PROVIDER_ID = "oidc";
