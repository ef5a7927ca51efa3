"use client";

import { useActionState } from "react";
import type { Density } from "@/lib/density";
import type { ActionResult } from "@/lib/server/define-action";

type DensityResult = ActionResult<{ density: Density }> | null;

/**
 * Compact or comfortable rows, for the person's lists: two buttons, the chosen one pressed. A plain
 * form underneath, so it works without JavaScript; the page is drawn again with the server's choice.
 */
export function DensitySwitch({ density, action: setDensity }: { density: Density; action: (previous: DensityResult, formData: FormData) => Promise<DensityResult> }) {
  const [result, action, pending] = useActionState(setDensity, null);
  return (
    <form action={action} className="density-switch" aria-label="Rows">
      <span className="muted small">Rows:</span>
      <button type="submit" name="density" value="compact" className="link-button small" aria-pressed={density === "compact"} disabled={pending}>
        Compact
      </button>
      <button type="submit" name="density" value="comfortable" className="link-button small" aria-pressed={density === "comfortable"} disabled={pending}>
        Comfortable
      </button>
      {result && !result.ok ? (
        <span role="alert" className="error-text">
          {result.error.message}
        </span>
      ) : null}
    </form>
  );
}
