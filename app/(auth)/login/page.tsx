import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { isDemoMode, oidcConfig } from "@/lib/config";
import { DEMO_USERS } from "@/lib/demo-people";
import { SIGN_IN_ERROR_MESSAGES, TOO_MANY_SIGN_INS } from "@/lib/server/auth-constants";
import { safeCallbackPath } from "@/lib/server/callback-path";
import { currentUser } from "@/lib/server/session";
import { signInWithOidc } from "./actions";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(params.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  const oidc = oidcConfig();
  const demo = isDemoMode();
  return (
    <main className="centered">
      <div className="card sign-in">
        <h1>Sign in to Parley</h1>
        <p className="muted">Where agents and flows ask people, and wait for the answer.</p>
        {params.error && !Array.isArray(params.error) ? (
          <p role="alert" className="error-banner">
            {params.code === TOO_MANY_SIGN_INS
              ? "Too many attempts — try again in a few minutes."
              : Object.hasOwn(SIGN_IN_ERROR_MESSAGES, params.error)
                ? SIGN_IN_ERROR_MESSAGES[params.error]
                : "Sign-in did not complete. Please try again."}
          </p>
        ) : null}
        <LoginForm callbackUrl={callbackUrl} />
        {oidc ? (
          <form action={signInWithOidc}>
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <button type="submit" className="secondary wide">
              Continue with {oidc.name}
            </button>
          </form>
        ) : null}
      </div>
      {demo ? (
        <section className="card demo-credentials" aria-labelledby="demo-heading">
          <h2 id="demo-heading">Demo sign-ins</h2>
          <p className="muted">This Parley runs on its embedded demo database. These people exist only here.</p>
          <table>
            <thead>
              <tr>
                <th>Email</th>
                <th>Password</th>
                <th>Roles</th>
              </tr>
            </thead>
            <tbody>
              {DEMO_USERS.map((user) => (
                <tr key={user.email}>
                  <td>{user.email}</td>
                  <td>
                    <code>{user.password}</code>
                  </td>
                  <td>{user.roles.join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </main>
  );
}
