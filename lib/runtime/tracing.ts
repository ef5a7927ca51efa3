import { type Attributes, type Context, context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

/**
 * The runtime's spans, through OpenTelemetry's API: nothing is recorded unless the process started
 * an SDK (lib/server/tracing.ts, when an OTLP endpoint is set) — the API alone is a no-op.
 *
 * A trace follows a person's answer from the request that deposits it (`parley.deposit`), through the
 * job it queues (the job's row keeps the trace context: db/queries/job-trace.ts), to the job that
 * resumes the run (`parley.job <kind>`, a child of the deposit, on whichever instance claims it), the
 * agent's turn (`parley.turn <agent>`) and its model calls (lib/models/measured-model.ts).
 */
const tracer = () => trace.getTracer("parley");

/** Runs `work` in a span `name` (a child of `parent`, else of the active span): an error is recorded on it and thrown on. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>, options: { parent?: Context; kind?: SpanKind } = {}): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind: options.kind ?? SpanKind.INTERNAL }, options.parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The trace a job was queued in, to continue it; a new trace when it carries none. */
export function jobParent(traceContext: Record<string, string> | null): Context {
  return traceContext ? propagation.extract(ROOT_CONTEXT, traceContext) : ROOT_CONTEXT;
}

export { SpanKind };
