/** The provider id of OpenID Connect sign-in, when it is configured. */
export const OIDC_PROVIDER_ID = "oidc";

/** Why sign-in was refused to a deactivated person: the credentials error's code, and `?error=` on the sign-in page after single sign-on. */
export const DEACTIVATED_SIGN_IN = "deactivated";

/** What a deactivated person is told when they try to sign in. */
export const DEACTIVATED_SIGN_IN_MESSAGE = "Your Parley account has been deactivated, so you can't sign in. Ask an admin if you need it back.";

/** Why sign-in was refused while an account or address is blocked after too many wrong passwords: the credentials error's code. */
export const TOO_MANY_SIGN_INS = "throttled";

/** `?error=` on the sign-in page: the provider did not say, with `email_verified: true`, that it verified the email. */
export const OIDC_EMAIL_UNCONFIRMED = "email_unconfirmed";

/** `?error=` on the sign-in page: the provider gave no email, neither in the ID token nor from UserInfo. */
export const OIDC_NO_EMAIL = "no_email";

/** `?error=` next-auth puts on the sign-in page when the provider sends the person back with an error (cancelled, refused). */
export const OIDC_CANCELLED = "OAuthCallbackError";

/** What the sign-in page says for each `?error=`; anything else gets a general "try again". */
export const SIGN_IN_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  AccessDenied: "Single sign-on worked, but that email has no Parley account. Ask an admin to add you.",
  [DEACTIVATED_SIGN_IN]: DEACTIVATED_SIGN_IN_MESSAGE,
  [OIDC_EMAIL_UNCONFIRMED]:
    "Your single sign-on provider did not confirm that the email address is yours, so Parley can't tell who you are. Ask whoever runs the provider to verify your email.",
  [OIDC_NO_EMAIL]: "Your single sign-on provider did not give Parley your email address, so Parley can't tell who you are. Ask an admin.",
  [OIDC_CANCELLED]: "Single sign-on was cancelled or refused at the provider, so you are not signed in. You can try again.",
};
