import { CopyButton } from "./copy-button";

/**
 * A key's secret (and its webhook signing secret, for an agent key) as text to select, each with a
 * copy button when the browser can copy. Long secrets break anywhere rather than widen a phone's page.
 */
export function ApiKeySecrets({
  secret,
  webhookSecret,
  secretLabel,
  copyLabel,
}: {
  secret: string;
  webhookSecret: string | null;
  /** What the secret is called: "API key", "Token". */
  secretLabel: string;
  /** The copy button's name: "Copy the API key". */
  copyLabel: string;
}) {
  return (
    <dl className="secrets">
      <div>
        <dt>{secretLabel}</dt>
        <dd>
          <code className="secret" data-testid="api-key-secret">
            {secret}
          </code>
          <CopyButton text={secret} label={copyLabel} />
        </dd>
      </div>
      {webhookSecret ? (
        <div>
          <dt>Webhook signing secret</dt>
          <dd>
            <code className="secret" data-testid="webhook-secret">
              {webhookSecret}
            </code>
            <CopyButton text={webhookSecret} label="Copy the webhook signing secret" />
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
