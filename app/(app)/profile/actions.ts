"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { CreateApiKeyState } from "@/components/create-api-key-form";
import type { RevokeApiKeyState } from "@/components/revoke-api-key-form";
import { apiKeyNameSchema, createApiKey, revokeKey } from "@/lib/api-keys";
import { getDb } from "@/lib/database";
import { setDelegate } from "@/lib/people";
import { type ActionResult, defineFormAction } from "@/lib/server/define-action";
import { submittedText } from "@/lib/server/form-values";

const createPersonalToken = defineFormAction({
  roles: [],
  input: z.object({ name: apiKeyNameSchema("personal") }),
  async handler({ name }, user) {
    const created = await createApiKey(await getDb(), { kind: "personal", name, by: user.id, userId: user.id });
    revalidatePath("/profile");
    return created;
  },
});

/** Anyone signed in: makes a personal token that acts as them (e.g. at a terminal); its secret comes back this once. */
export async function createPersonalTokenAction(_previous: CreateApiKeyState | null, formData: FormData | Record<string, unknown>): Promise<CreateApiKeyState> {
  const result = await createPersonalToken(formData);
  return { ...result, values: { name: result.ok ? "" : submittedText(formData, "name") } };
}

const revokePersonalToken = defineFormAction({
  roles: [],
  input: z.object({ keyId: z.uuid() }),
  async handler({ keyId }, user) {
    // Scoped to the caller: someone else's token is "not found", whoever asks.
    const revoked = await revokeKey(await getDb(), { id: keyId, kind: "personal", userId: user.id, by: user.id });
    revalidatePath("/profile");
    return { id: revoked.id, name: revoked.name };
  },
});

/** Anyone signed in: revokes one of their own tokens; its next request is refused. */
export async function revokePersonalTokenAction(_previous: RevokeApiKeyState | null, formData: FormData | Record<string, unknown>): Promise<RevokeApiKeyState> {
  return await revokePersonalToken(formData);
}

const setMyDelegate = defineFormAction({
  roles: ["assignee"],
  input: z.object({ delegateId: z.string() }),
  async handler({ delegateId }, user) {
    const updated = await setDelegate(await getDb(), { personId: user.id, delegateId: delegateId === "" ? null : delegateId, by: user.id });
    revalidatePath("/profile");
    return { message: updated.delegateId ? "Saved: while you are away, your new questions go to them." : "Saved: while you are away, you get no new questions." };
  },
});

/** Someone who answers questions: names who takes their new questions while they are away (or nobody). */
export async function setMyDelegateAction(_previous: ActionResult<{ message: string }> | null, formData: FormData | Record<string, unknown>): Promise<ActionResult<{ message: string }>> {
  return setMyDelegate(formData);
}
