"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { changeAway } from "@/lib/people";
import { AppError } from "@/lib/errors";
import { type ActionResult, defineAction, formDataToObject } from "@/lib/server/define-action";
import { formBoolean } from "@/lib/server/form-values";

const setPersonAway = defineAction({
  roles: ["admin"],
  input: z.object({ userId: z.uuid(), away: formBoolean }),
  async handler({ userId, away }) {
    const person = await changeAway(await getDb(), userId, away);
    if (!person) throw new AppError("not_found", "There is no such person.");
    revalidatePath("/admin");
    return { userId: person.id, away: person.away };
  },
});

/** Admins only: mark someone away (or back), e.g. when they are on leave and can't say so themselves. */
export async function setPersonAwayAction(
  _previous: ActionResult<{ userId: string; away: boolean }> | null,
  formData: FormData | Record<string, unknown>,
): Promise<ActionResult<{ userId: string; away: boolean }>> {
  return setPersonAway(formData instanceof FormData ? formDataToObject(formData) : formData);
}
