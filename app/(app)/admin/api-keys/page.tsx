import type { Metadata } from "next";
import Link from "next/link";
import { ApiKeySecrets } from "@/components/api-key-secrets";
import { ApiKeysTable } from "@/components/api-keys-table";
import { CreateApiKeyForm } from "@/components/create-api-key-form";
import { API_KEY_NAME_MAX, listKeys } from "@/lib/api-keys";
import { isDemoMode } from "@/lib/config";
import { getDb } from "@/lib/database";
import { requirePageUser } from "@/lib/server/session";
import { createAgentKeyAction, revokeAgentKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  await requirePageUser(["admin"]);
  const keys = await listKeys(await getDb(), "agent");
  const now = new Date();
  // Only the demo key keeps its secret, and only demo mode shows it.
  const demoKey = isDemoMode() ? keys.find((key) => key.demoSecret && !key.revokedAt) : undefined;
  return (
    <section className="api-keys-page">
      <p className="muted">
        <Link href="/admin">Admin</Link> / API keys
      </p>
      <h1>API keys</h1>
      <p>
        An agent key lets a program ask people over the HTTP API: it sends the key as <code>Authorization: Bearer &lt;key&gt;</code> to{" "}
        <code>/api/v1/asks</code>. People see the key’s name as who is asking.
      </p>
      {demoKey?.demoSecret ? (
        <section className="card-plain demo-key" aria-labelledby="demo-key-heading">
          <h2 id="demo-key-heading">Demo API key</h2>
          <p className="muted">
            This Parley runs on its embedded demo database, so the key “{demoKey.name}” is shown here and on the console. Any other key is shown once, when it is made.
          </p>
          <ApiKeySecrets secret={demoKey.demoSecret} webhookSecret={demoKey.demoWebhookSecret} secretLabel="API key" copyLabel="Copy the demo API key" />
        </section>
      ) : null}
      <h2>New key</h2>
      <CreateApiKeyForm kind="agent" nameMaxLength={API_KEY_NAME_MAX} action={createAgentKeyAction} />
      <h2>Agent keys</h2>
      <ApiKeysTable keys={keys} now={now} label="Agent keys" noun="key" revoke={revokeAgentKeyAction} />
    </section>
  );
}
