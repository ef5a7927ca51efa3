/** The provider id of OpenID Connect sign-in, when it is configured. */
export const OIDC_PROVIDER_ID = "oidc";

/** Why sign-in was refused to a deactivated person: the credentials error's code, and `?error=` on the sign-in page after single sign-on. */
export const DEACTIVATED_SIGN_IN = "deactivated";

/** What a deactivated person is told when they try to sign in. */
export const DEACTIVATED_SIGN_IN_MESSAGE = "Your Parley account has been deactivated, so you can't sign in. Ask an admin if you need it back.";

/** Why sign-in was refused while an account or address is blocked after too many wrong passwords: the credentials error's code. */
export const TOO_MANY_SIGN_INS = "throttled";
