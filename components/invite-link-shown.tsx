import type { InviteShown } from "./person-forms-state";
import { CopyButton } from "./copy-button";

const until = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

/** An invite link just made, shown this once: to copy and hand over, with whether it was emailed too. */
export function InviteLinkShown({ invite, headingId }: { invite: InviteShown; headingId: string }) {
  return (
    <section className="key-created" aria-labelledby={headingId} data-testid="invite-created">
      <h3 id={headingId}>Invite link for {invite.name}</h3>
      <p className="notice">
        <strong>Copy it now and give it to {invite.name}: it is not shown again.</strong> It works once, until {until.format(new Date(invite.expiresAt))} UTC; it lets them
        set a password and signs them in. Parley keeps only a hash of it.
      </p>
      <dl className="secrets">
        <div>
          <dt>Invite link</dt>
          <dd>
            <code className="secret" data-testid="invite-link">
              {invite.url}
            </code>
            <CopyButton text={invite.url} label="Copy the invite link" />
          </dd>
        </div>
      </dl>
      <p className="muted" data-testid="invite-delivery">
        {invite.delivery === "emailed"
          ? `Also emailed to ${invite.email}.`
          : invite.delivery === "email_failed"
            ? `The email to ${invite.email} could not be sent: hand the link over yourself.`
            : "Email is not configured on this Parley: hand the link over yourself."}
      </p>
    </section>
  );
}
