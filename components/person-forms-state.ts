import type { ActionResult } from "@/lib/server/define-action";

/** An invite link just made, to show the admin once. */
export interface InviteShown {
  personId: string;
  name: string;
  email: string;
  url: string;
  expiresAt: string;
  /** Whether it was also emailed to them. */
  delivery: "emailed" | "email_failed" | "not_configured";
}

/** What the add-person form shows after a submission: the invite, or refusals beside what was typed. */
export type AddPersonState = ActionResult<InviteShown> & {
  values: { name: string; email: string; roles: string[]; groupIds: string[] };
};

/** What a person's forms show after a submission: a sentence saying what changed, or the refusal. */
export type PersonChangeState = ActionResult<{ message: string }>;

/** What "make a new invite link" shows: the new link, once. */
export type ReinviteState = ActionResult<InviteShown>;

/** The roles, as the add and edit forms offer them. */
export const ROLE_CHOICES = [
  { value: "assignee", label: "Assignee", hint: "answers questions" },
  { value: "operator", label: "Operator", hint: "starts runs" },
  { value: "admin", label: "Admin", hint: "manages people, groups, keys and SLAs" },
] as const;
