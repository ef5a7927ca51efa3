"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { CreateApiKeyState } from "@/components/create-api-key-form";
import type { RevokeApiKeyState } from "@/components/revoke-api-key-form";
import { apiKeyNameSchema, createApiKey, revokeKey } from "@/lib/api-keys";
import { getDb } from "@/lib/database";
import { defineFormAction } from "@/lib/server/define-action";
import { submittedText } from "@/lib/server/form-values";

const createAgentKey = defineFormAction({
  roles: ["admin"],
  input: z.object({ name: apiKeyNameSchema("agent") }),
  async handler({ name }, admin) {
    const created = await createApiKey(await getDb(), { kind: "agent", name, by: admin.id });
    revalidatePath("/admin/api-keys");
    return created;
  },
});

/** Admins only: makes an agent key; its secret and webhook signing secret come back this once. */
export async function createAgentKeyAction(_previous: CreateApiKeyState | null, formData: FormData | Record<string, unknown>): Promise<CreateApiKeyState> {
  const result = await createAgentKey(formData);
  return { ...result, values: { name: result.ok ? "" : submittedText(formData, "name") } };
}

const revokeAgentKey = defineFormAction({
  roles: ["admin"],
  input: z.object({ keyId: z.uuid() }),
  async handler({ keyId }, admin) {
    const revoked = await revokeKey(await getDb(), { id: keyId, kind: "agent", by: admin.id });
    revalidatePath("/admin/api-keys");
    return { id: revoked.id, name: revoked.name };
  },
});

/** Admins only: revokes an agent key; its next request is refused. */
export async function revokeAgentKeyAction(_previous: RevokeApiKeyState | null, formData: FormData | Record<string, unknown>): Promise<RevokeApiKeyState> {
  return await revokeAgentKey(formData);
}
