import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { getDb } from "@/lib/database";
import { PASSWORD_MIN_LENGTH, readInvite } from "@/lib/invites";
import { setPasswordWithInvite } from "./actions";
import { SetPasswordForm } from "./set-password-form";

export const metadata: Metadata = { title: "Your invite", referrer: "no-referrer" };

/** Public: the link is the authority. Opening it spends nothing (mail scanners open links too); setting the password does. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const invite = await readInvite(await getDb(), token);
  return (
    <main className="centered">
      <div className="card sign-in">
        {invite ? (
          <>
            <h1>Welcome to Parley, {invite.name}</h1>
            <p className="muted">
              Choose a password for <strong>{invite.email}</strong>. This link works once: after this you sign in with your email and this password.
            </p>
            <SetPasswordForm token={token} email={invite.email} minLength={PASSWORD_MIN_LENGTH} action={setPasswordWithInvite} />
          </>
        ) : (
          <>
            <h1>This invite link no longer works</h1>
            <p role="alert" className="error-banner">
              This invite link has expired or has already been used.
            </p>
            <p>
              Ask an admin for a new invite link, or <Link href="/login">sign in</Link> if you already have a password.
            </p>
          </>
        )}
      </div>
    </main>
  );
}
