"use server";

import { cookies } from "next/headers";
import { DENSITIES, DENSITY_COOKIE, type Density } from "@/lib/density";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { findForPalette } from "@/lib/palette";
import { changeAway } from "@/lib/people";
import { getRegistry } from "@/lib/registry/configured";
import { signOut } from "@/lib/server/auth";
import { type ActionResult, defineFormAction } from "@/lib/server/define-action";
import { formBoolean } from "@/lib/server/form-values";

const setMyAway = defineFormAction({
  roles: [],
  input: z.object({ away: formBoolean }),
  async handler({ away }, user) {
    await changeAway(await getDb(), user.id, away, user.id);
    revalidatePath("/", "layout");
    return { away };
  },
});

/** The away switch in the header: marks the signed-in person away, or back. */
export async function setMyAwayAction(_previous: ActionResult<{ away: boolean }> | null, formData: FormData | Record<string, unknown>): Promise<ActionResult<{ away: boolean }>> {
  return setMyAway(formData);
}

const setDensity = defineFormAction({
  roles: [],
  input: z.object({ density: z.enum(DENSITIES, { error: "Choose compact or comfortable rows." }) }),
  async handler({ density }) {
    // The browser keeps it (a year); nothing is stored about the person.
    (await cookies()).set(DENSITY_COOKIE, density, { path: "/", maxAge: 365 * 24 * 60 * 60, sameSite: "lax", httpOnly: true });
    revalidatePath("/", "layout");
    return { density };
  },
});

/** Compact or comfortable rows in the signed-in person's lists, kept by their browser. */
export async function setDensityAction(
  _previous: ActionResult<{ density: Density }> | null,
  formData: FormData | Record<string, unknown>,
): Promise<ActionResult<{ density: Density }>> {
  return setDensity(formData);
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/login" });
}

const findInPalette = defineFormAction({
  roles: [],
  input: z.object({ words: z.string().max(200, "Type at most 200 characters.") }),
  async handler({ words }, user) {
    return findForPalette(await getDb(), getRegistry(), user, words.trim(), new Date());
  },
});

/** The command palette's search: the signed-in person's open questions and (for operators and admins) recent runs with `words`. */
export async function findInPaletteAction(_previous: unknown, submitted: FormData | Record<string, unknown>): Promise<ActionResult<Awaited<ReturnType<typeof findForPalette>>>> {
  return findInPalette(submitted);
}
