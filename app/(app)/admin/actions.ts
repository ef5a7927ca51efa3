"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { findUserById } from "@/db/queries/users";
import { getAppRuntime } from "@/lib/app-runtime";
import { remindAboutQuestion as remind } from "@/lib/notifications/outbox";
import { changeAway, findAssignees, type FoundAssignee } from "@/lib/people";
import { AppError } from "@/lib/errors";
import { type ActionResult, defineFormAction } from "@/lib/server/define-action";
import { formBoolean, formList } from "@/lib/server/form-values";
import { BULK_WAITS_MAX, type BulkOutcome, reassignWaits, remindWaits } from "@/lib/bulk-waits";

const setPersonAway = defineFormAction({
  roles: ["admin"],
  input: z.object({ userId: z.uuid(), away: formBoolean }),
  async handler({ userId, away }, user) {
    const person = await changeAway(await getDb(), userId, away, user.id);
    if (!person) throw new AppError("not_found", "There is no such person.");
    revalidatePath("/admin");
    revalidatePath(`/admin/people/${person.id}`);
    return { userId: person.id, away: person.away };
  },
});

/** Admins only: mark someone away (or back), e.g. when they are on leave and can't say so themselves. */
export async function setPersonAwayAction(
  _previous: ActionResult<{ userId: string; away: boolean }> | null,
  formData: FormData | Record<string, unknown>,
): Promise<ActionResult<{ userId: string; away: boolean }>> {
  return await setPersonAway(formData);
}

const reassignSlot = defineFormAction({
  roles: ["admin"],
  input: z.object({ slotId: z.uuid(), assigneeId: z.uuid("Choose who it goes to.") }),
  async handler({ slotId, assigneeId }, admin) {
    const person = await findUserById(await getDb(), assigneeId);
    if (!person || !person.roles.includes("assignee")) throw new AppError("not_found", "There is no such assignee.");
    const { runtime } = await getAppRuntime();
    const result = await runtime.reassignSlot({ slotId, to: person.id, by: admin.id });
    if (result.status === "not_open") throw new AppError("conflict", "This wait is no longer open: it was answered, expired or closed meanwhile.");
    revalidatePath("/admin/sla");
    return { slotId, assigneeName: person.name };
  },
});

/** Admins only: move an open wait to another assignee; the old one loses it and the new one sees it live. */
export async function reassignSlotAction(
  _previous: ActionResult<{ slotId: string; assigneeName: string }> | null,
  formData: FormData | Record<string, unknown>,
): Promise<ActionResult<{ slotId: string; assigneeName: string }>> {
  return await reassignSlot(formData);
}

const remindAboutQuestion = defineFormAction({
  roles: ["admin"],
  input: z.object({ questionId: z.uuid() }),
  async handler({ questionId }, admin) {
    const { notifiers, notices } = await getAppRuntime();
    // Always in the app; by email and webhook too where they are configured.
    const result = await remind(await getDb(), questionId, { ...notices, notifiers, at: new Date(), remindedBy: admin.name });
    if (result.status === "nothing_to_send") throw new AppError("conflict", "This question is no longer open, or nobody is there to remind.");
    return { people: result.people, queued: result.deliveries };
  },
});

/** Admins only: remind whoever an open question waits on, in the app and through every configured notifier. */
export async function remindAction(
  _previous: ActionResult<{ people: string[]; queued: number }> | null,
  formData: FormData | Record<string, unknown>,
): Promise<ActionResult<{ people: string[]; queued: number }>> {
  return await remindAboutQuestion(formData);
}

const bulkWaits = defineFormAction({
  roles: ["admin"],
  input: z.discriminatedUnion("do", [
    z.object({ do: z.literal("remind"), slotId: formList(z.array(z.uuid()).min(1, "Tick the waits to remind about first.").max(BULK_WAITS_MAX)) }),
    z.object({
      do: z.literal("reassign"),
      slotId: formList(z.array(z.uuid()).min(1, "Tick the waits to reassign first.").max(BULK_WAITS_MAX)),
      assigneeEmail: z.email("Give the email of the person they go to."),
    }),
  ]),
  async handler(input, admin): Promise<BulkOutcome & { did: "remind" | "reassign" }> {
    const db = await getDb();
    const slotIds = [...new Set(input.slotId)];
    if (input.do === "remind") {
      const { notifiers, notices } = await getAppRuntime();
      return { did: "remind", ...(await remindWaits(db, slotIds, { ...notices, notifiers, at: new Date(), remindedBy: admin.name })) };
    }
    const { runtime } = await getAppRuntime();
    const outcome = await reassignWaits(db, runtime, { slotIds, email: input.assigneeEmail, by: admin.id });
    revalidatePath("/admin/sla");
    // The people they were on and go to list their open waits too.
    revalidatePath("/admin/people/[id]", "page");
    return { did: "reassign", ...outcome };
  },
});

/** Admins only: the waits ticked on the SLA page or a person's page reminded, or reassigned to one person, at once (each its own update, as one row's button). */
export async function bulkWaitsAction(
  _previous: ActionResult<BulkOutcome & { did: "remind" | "reassign" }> | null,
  formData: FormData | Record<string, unknown>,
): Promise<ActionResult<BulkOutcome & { did: "remind" | "reassign" }>> {
  return await bulkWaits(formData);
}

const findPeopleToReassignTo = defineFormAction({
  roles: ["admin"],
  input: z.object({ words: z.string().max(200, "Type at most 200 characters.") }),
  async handler({ words }) {
    return findAssignees(await getDb(), words);
  },
});

/** Admins only: the people who answer questions whose name or email holds `words`, for the reassign box to offer. */
export async function findPeopleToReassignToAction(_previous: unknown, submitted: FormData | Record<string, unknown>): Promise<ActionResult<FoundAssignee[]>> {
  return await findPeopleToReassignTo(submitted);
}
