import { appendFile } from 'node:fs/promises';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

type ExportResult = Parameters<SpanExporter['export']>[1] extends (result: infer R) => void
  ? R
  : never;

const toMs = (time: readonly [number, number]): number => time[0] * 1000 + time[1] / 1e6;

/** One span as a JSON line of the telemetry outfile. */
export function spanToJson(span: ReadableSpan): Record<string, unknown> {
  const start = toMs(span.startTime);
  const end = toMs(span.endTime);
  return {
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    ...(span.parentSpanContext === undefined
      ? {}
      : { parentSpanId: span.parentSpanContext.spanId }),
    name: span.name,
    kind: span.kind,
    startTime: new Date(start).toISOString(),
    endTime: new Date(end).toISOString(),
    durationMs: Math.round((end - start) * 1000) / 1000,
    attributes: span.attributes,
    status: span.status,
    events: span.events.map((e) => ({
      name: e.name,
      time: new Date(toMs(e.time)).toISOString(),
      attributes: e.attributes ?? {},
    })),
    resource: span.resource.attributes,
    scope: span.instrumentationScope.name,
  };
}

/**
 * Appends every exported span to a file, one JSON object a line (gemini-cli's `telemetry.outfile`). Writes are
 * queued in order; a failed write fails that export.
 */
export class FileSpanExporter implements SpanExporter {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    const text = spans.map((s) => `${JSON.stringify(spanToJson(s))}\n`).join('');
    this.queue = this.queue
      .then(() => appendFile(this.path, text, { mode: 0o600 }))
      .then(
        () => resultCallback({ code: 0 } as ExportResult),
        (error: unknown) =>
          resultCallback({
            code: 1,
            error: error instanceof Error ? error : new Error(String(error)),
          } as ExportResult),
      );
  }

  forceFlush(): Promise<void> {
    return this.queue;
  }

  shutdown(): Promise<void> {
    return this.queue;
  }
}
