"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { AppError } from "@/lib/errors";
import { markEveryNotificationRead, openNotification } from "@/lib/person-notifications";
import { type ActionResult, defineFormAction } from "@/lib/server/define-action";

const openOne = defineFormAction({
  roles: [],
  input: z.object({ notificationId: z.uuid("There is no such notification.") }),
  async handler({ notificationId }, user) {
    const href = await openNotification(await getDb(), user.id, notificationId);
    if (!href) throw new AppError("not_found", "There is no such notification.");
    return { href };
  },
});

/**
 * Opens one of the signed-in person's notifications: marks it read and takes them to its question.
 * A plain form's action (it works without JavaScript); anything refused comes back as data.
 */
export async function openNotificationAction(
  _previous: ActionResult<{ href: string }> | null,
  formData: FormData | Record<string, unknown>,
): Promise<ActionResult<{ href: string }>> {
  const result = await openOne(formData);
  // Outside the wrapper: a redirect is how a form action that succeeded goes on to the page.
  if (result.ok) redirect(result.data.href);
  return result;
}

const markAllRead = defineFormAction({
  roles: [],
  input: z.object({}),
  async handler(_input, user) {
    return { marked: await markEveryNotificationRead(await getDb(), user.id) };
  },
});

/** Marks every notification of the signed-in person read. */
export async function markAllNotificationsReadAction(
  _previous: ActionResult<{ marked: number }> | null,
  formData: FormData | Record<string, unknown>,
): Promise<ActionResult<{ marked: number }>> {
  return markAllRead(formData);
}
