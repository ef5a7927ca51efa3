import type { ApiKeySummary } from "@/lib/api-keys";
import { RevokeApiKeyForm, type RevokeApiKeyState } from "./revoke-api-key-form";
import { When } from "./when";

/**
 * Keys (or a person's tokens), newest first: name, the secret's first characters, when made and last
 * used, and whether it is live — with Revoke on each live one. Never a secret. On a phone each row
 * stacks into labelled lines.
 */
export function ApiKeysTable({
  keys,
  now,
  label,
  noun,
  revoke,
}: {
  keys: readonly ApiKeySummary[];
  now: Date;
  /** The table's accessible name, e.g. "Agent keys". */
  label: string;
  /** "key" or "token", for the column heading and the empty table. */
  noun: string;
  revoke: (previous: RevokeApiKeyState | null, formData: FormData) => Promise<RevokeApiKeyState>;
}) {
  if (keys.length === 0) return <p className="muted">No {noun}s yet.</p>;
  return (
    <table className="table stacks api-keys" aria-label={label}>
      <thead>
        <tr>
          <th>Name</th>
          <th>{noun === "key" ? "Key" : "Token"}</th>
          <th>Created</th>
          <th>Last used</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id} data-testid="api-key-row" className={key.revokedAt ? "revoked" : undefined}>
            <td className="key-name">{key.name}</td>
            <td data-label={noun === "key" ? "Key" : "Token"}>
              <code>{key.prefix}</code>
            </td>
            <td data-label="Created">
              <When at={key.createdAt} now={now} />
            </td>
            <td data-label="Last used">{key.lastUsedAt ? <When at={key.lastUsedAt} now={now} /> : <span className="muted">never</span>}</td>
            <td data-label="Status">
              {key.revokedAt ? (
                <span className="key-status">
                  <span className="badge status-failed">Revoked</span> <When at={key.revokedAt} now={now} />
                </span>
              ) : (
                <span className="key-status">
                  <span className="badge">Live</span>
                  <RevokeApiKeyForm keyId={key.id} name={key.name} action={revoke} />
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
