import { cookies } from "next/headers";
import Link from "next/link";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { AwaySwitch } from "@/components/away-switch";
import { CommandPalette } from "@/components/command-palette";
import { KeyboardKeys } from "@/components/keyboard-keys";
import { LiveRefresh } from "@/components/live-refresh";
import { NotificationBell } from "@/components/notification-bell";
import { getAppRuntime } from "@/lib/app-runtime";
import { getDb } from "@/lib/database";
import { DENSITY_COOKIE, densityFrom } from "@/lib/density";
import { placesFor } from "@/lib/palette";
import { unreadNotificationCount } from "@/lib/person-notifications";
import { getRegistry } from "@/lib/registry/configured";
import { navigationFor } from "@/lib/auth/roles";
import { currentAnswerLinkSession, currentUser, requirePageUser } from "@/lib/server/session";
import { findInPaletteAction, setMyAwayAction, signOutAction } from "./actions";

export default async function SignedInLayout({ children }: { children: ReactNode }) {
  await connection();
  // A session from an email's answer link gets a bare shell: its one question's page admits it, every other page sends it to sign-in.
  if (!(await currentUser())) {
    const limited = await currentAnswerLinkSession();
    if (limited) return <LimitedShell name={limited.user.name}>{children}</LimitedShell>;
  }
  const user = await requirePageUser();
  const [{ model }, unread] = await Promise.all([getAppRuntime(), getDb().then((db) => unreadNotificationCount(db, user.id))]);
  const density = densityFrom((await cookies()).get(DENSITY_COOKIE)?.value);
  return (
    <div className={`shell density-${density}`}>
      <header className="topbar">
        <Link href="/" className="brand">
          Parley
        </Link>
        <nav aria-label="Main">
          {navigationFor(user.roles).map((link) => (
            <Link key={link.href} href={link.href}>
              {link.label}
            </Link>
          ))}
        </nav>
        <span
          className={model.kind === "scripted" ? "model-badge scripted" : "model-badge"}
          data-testid="model-badge"
          title={model.kind === "scripted" ? "No model is configured: agents follow a fixed script, not a real model." : undefined}
        >
          {model.label}
        </span>
        <div className="account">
          <CommandPalette places={placesFor(user, getRegistry())} find={findInPaletteAction} />
          <NotificationBell unread={unread} />
          {/* Away is for people who are asked questions (and anyone still marked away, to switch it off). */}
          {user.roles.includes("assignee") || user.away ? <AwaySwitch away={user.away} action={setMyAwayAction} /> : null}
          <Link href="/profile" className="user-name" data-testid="user-name" title="Your profile and tokens for the terminal">
            {user.name}
          </Link>
          <form action={signOutAction}>
            <button type="submit" className="link-button">
              Sign out
            </button>
          </form>
        </div>
      </header>
      <main className="content">{children}</main>
      <LiveRefresh />
      <KeyboardKeys />
    </div>
  );
}

/** The shell around the one question a session from an answer link may answer: no navigation, no inbox. */
function LimitedShell({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">Parley</span>
        <span className="muted limited-as">Answering as {name}</span>
        <div className="account">
          <Link href="/login">Sign in</Link>
        </div>
      </header>
      <main className="content">{children}</main>
    </div>
  );
}
