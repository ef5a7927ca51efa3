import { APICallError, generateText } from "ai";
import { describe, expect, it } from "vitest";
import { createMetrics } from "@/lib/metrics";
import { measuredModel } from "@/lib/models/measured-model";
import { createScriptedModel } from "@/lib/models/scripted-model";

/** Metrics with no database behind them: the model calls are this process's own. */
function metricsAlone() {
  const away = () => Promise.reject(new Error("no database in this test"));
  return createMetrics({ counts: away, lastDay: away });
}

describe("a model call", () => {
  it("is counted with its provider and duration when the model answers, and the answer is the model's", async () => {
    const metrics = metricsAlone();
    const model = measuredModel(createScriptedModel({ name: "auditor", respond: () => ({ delayMs: 20, then: { text: "Looks fine." } }) }), metrics.observeModelCall);

    const { text } = await generateText({ model, prompt: "Check this claim." });

    expect(text).toBe("Looks fine.");
    const { body } = await metrics.render();
    expect(body).toContain('parley_model_calls_total{provider="scripted",outcome="answered"} 1');
    expect(body).toContain('parley_model_call_duration_seconds_count{provider="scripted"} 1');
    const seconds = Number(/parley_model_call_duration_seconds_sum\{provider="scripted"\} (\S+)/.exec(body)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(0.02);
  });

  it("is counted as failed when the provider fails, and the caller still gets the provider's error", async () => {
    const metrics = metricsAlone();
    const model = measuredModel(createScriptedModel({ respond: () => ({ error: "overloaded", status: 529 }) }), metrics.observeModelCall);

    const failure = await generateText({ model, prompt: "Check this claim.", maxRetries: 0 }).catch((error: unknown) => error);

    expect(APICallError.isInstance(failure) && failure.statusCode).toBe(529);
    expect((await metrics.render()).body).toContain('parley_model_calls_total{provider="scripted",outcome="failed"} 1');
  });
});
