import type { Db } from "@/db/client";
import { insertPersonChanges } from "@/db/queries/person-changes";
import type { PersonChange } from "@/db/schema";
import { newTimeOrderedId } from "@/lib/ids";
import { formatUtc } from "@/lib/sla-clock";

/** What was changed about a person, by whom (null: Parley itself) and when. */
export interface NewPersonChange {
  personId: string;
  byId: string | null;
  kind: "added" | "invited" | "password-set" | "roles-changed" | "group-added" | "group-removed" | "deactivated" | "reactivated" | "delegate-changed" | "away-changed";
  data?: Record<string, unknown>;
  at: Date;
}

/** Records changes to people in the caller's transaction, with ids in the order given (so two at one moment list in order). */
export async function recordPersonChanges(db: Db, changes: readonly NewPersonChange[]): Promise<void> {
  await insertPersonChanges(
    db,
    changes.map((change) => ({ ...change, id: newTimeOrderedId(change.at.getTime()) })),
  );
}

function list(value: unknown): string {
  return Array.isArray(value) && value.length > 0 ? value.map(String).join(", ") : "none";
}

function text(value: unknown, otherwise: string): string {
  return typeof value === "string" && value ? value : otherwise;
}

/** One line saying what a recorded change did, for the person's page ("Roles: assignee → assignee, operator"). */
export function describePersonChange(change: Pick<PersonChange, "kind" | "data">): string {
  const data = change.data ?? {};
  switch (change.kind) {
    case "added":
      return `Added to Parley as ${list(data.roles)}${Array.isArray(data.groups) && data.groups.length > 0 ? `, in ${list(data.groups)}` : ""}`;
    case "invited": {
      const until = typeof data.expiresAt === "string" ? new Date(data.expiresAt) : null;
      const replaced = typeof data.replaced === "number" && data.replaced > 0 ? " (the earlier link stopped working)" : "";
      return `Invite link made${until && !Number.isNaN(until.getTime()) ? `, valid until ${formatUtc(until)}` : ""}${replaced}`;
    }
    case "password-set":
      return "Set their password through the invite link, and signed in";
    case "roles-changed":
      return `Roles: ${list(data.from)} → ${list(data.to)}`;
    case "group-added":
      return `Added to the group ${text(data.group, "(deleted)")}`;
    case "group-removed":
      return data.deleted === true ? `Left the group ${text(data.group, "(deleted)")}: the group was deleted` : `Removed from the group ${text(data.group, "(deleted)")}`;
    case "deactivated":
      return "Deactivated: signed out everywhere, and cannot sign in";
    case "reactivated":
      return "Reactivated: can sign in again";
    case "away-changed":
      return data.away === true ? "Marked away: gets no new questions" : "Marked back: gets questions again";
    case "delegate-changed":
      return data.to ? `While away, their questions go to ${text(data.to, "someone")}` : "While away, their questions go to nobody (they get none)";
    default:
      return change.kind;
  }
}
