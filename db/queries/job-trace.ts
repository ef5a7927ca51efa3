import { context, propagation } from "@opentelemetry/api";
import { type SQL, sql } from "drizzle-orm";

/**
 * What a job queued by the statement being built records of the trace it is queued in: the W3C trace
 * context (`traceparent`, `tracestate`) of the active span, as JSON, or SQL null when nothing is being
 * traced (tracing off: OpenTelemetry's API then injects nothing). The job's `trace_context` column.
 */
export function jobTraceContext(): SQL {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? sql`${JSON.stringify(carrier)}::jsonb` : sql`null`;
}
