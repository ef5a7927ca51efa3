import type { NodeSDK } from "@opentelemetry/sdk-node";
import type { Environment } from "@/lib/config";

/**
 * OpenTelemetry tracing, on when an OTLP endpoint is configured by the standard variables
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) and not turned off by
 * `OTEL_SDK_DISABLED=true`. The SDK reads the rest of the standard variables itself: the protocol
 * (`OTEL_EXPORTER_OTLP_PROTOCOL`, http/protobuf by default; http/json and grpc too), headers, the
 * service name (`parley` unless `OTEL_SERVICE_NAME` says otherwise), resource attributes, the
 * sampler, the batch processor's delays. Only traces: Parley's metrics are Prometheus's
 * (`/api/metrics`) and its logs go to stdout, unless the OTel variables for them ask otherwise.
 *
 * Next.js traces each request (the span a route or a page runs in, parented on an incoming
 * `traceparent`); Parley adds the deposit of an answer, the job it queues — which carries the trace
 * context in its row, so the worker that resumes the run continues the trace on whatever instance
 * claims it — the agent's turn and the AI SDK's model calls.
 */
export function tracingWanted(env: Environment = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

const GLOBAL_KEY = Symbol.for("parley.tracing");
type GlobalWithTracing = typeof globalThis & { [GLOBAL_KEY]?: NodeSDK };

/** Starts tracing for this process when {@link tracingWanted}; once, whatever bundle asks. */
export async function startTracing(env: Environment = process.env): Promise<boolean> {
  const store = globalThis as GlobalWithTracing;
  if (store[GLOBAL_KEY]) return true;
  if (!tracingWanted(env)) return false;
  // Traces only, unless the other signals are asked for by their own variables.
  process.env.OTEL_METRICS_EXPORTER ??= "none";
  process.env.OTEL_LOGS_EXPORTER ??= "none";
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const sdk = new NodeSDK(env.OTEL_SERVICE_NAME?.trim() ? {} : { serviceName: "parley" });
  sdk.start();
  store[GLOBAL_KEY] = sdk;
  return true;
}

/** Sends the spans still held and stops tracing (a stopping server, before it exits); at most `timeoutMs`. */
export async function stopTracing(timeoutMs = 2_000): Promise<void> {
  const store = globalThis as GlobalWithTracing;
  const sdk = store[GLOBAL_KEY];
  if (!sdk) return;
  delete store[GLOBAL_KEY];
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([sdk.shutdown().catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}
