import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { OtelApi } from './otel-api.js';
import type {
  TelemetryLoggerProvider,
  TelemetryMeterProvider,
  TelemetryTracerProvider,
} from './telemetry-options.js';
import { CliSignals } from './cli-signals.js';
import { contentAttribute, errorMessage, errorTypeOf } from './span-content.js';
import { ATTR, TRACER_NAME } from './semconv.js';
import type { TurnState } from './session-spans.js';

/** Settings of a {@link TelemetryRecorder}. */
export interface RecorderSettings {
  readonly api: OtelApi;
  /** Explicit provider; default the global one. */
  readonly tracerProvider: TelemetryTracerProvider | undefined;
  /** Explicit providers of gemini-cli's metrics and log records; default the global ones, if registered. */
  readonly meterProvider?: TelemetryMeterProvider | undefined;
  readonly loggerProvider?: TelemetryLoggerProvider | undefined;
  readonly logPrompts: boolean;
  readonly agentName: string;
  readonly maxContentLength: number;
  readonly version: string;
}

/** The tracer and the open spans of every session of one agent. */
export class TelemetryRecorder {
  readonly api: OtelApi;
  readonly tracer: Tracer;
  readonly logPrompts: boolean;
  readonly agentName: string;
  /** gemini-cli's metrics and log records, when a provider records them. */
  readonly signals: CliSignals | undefined;
  private readonly maxContentLength: number;
  private readonly turns = new Map<string, TurnState>();
  private readonly prompts = new Map<string, number>();

  constructor(settings: RecorderSettings) {
    this.api = settings.api;
    const provider = settings.tracerProvider ?? settings.api.trace.getTracerProvider();
    this.tracer = provider.getTracer(TRACER_NAME, settings.version) as Tracer;
    this.logPrompts = settings.logPrompts;
    this.agentName = settings.agentName;
    this.maxContentLength = settings.maxContentLength;
    this.signals = CliSignals.create(
      settings.api,
      { meterProvider: settings.meterProvider, loggerProvider: settings.loggerProvider },
      {
        logPrompts: settings.logPrompts,
        maxContentLength: settings.maxContentLength,
        version: settings.version,
      },
    );
  }

  /** The next prompt id of a session (gemini-cli's `<session id>########<n>`). */
  nextPromptId(sessionId: string): string {
    const n = (this.prompts.get(sessionId) ?? 0) + 1;
    this.prompts.set(sessionId, n);
    return `${sessionId}########${n}`;
  }

  /** The running turn of a session, if any. */
  turn(sessionId: string): TurnState | undefined {
    return this.turns.get(sessionId);
  }

  setTurn(sessionId: string, state: TurnState | undefined): void {
    if (state === undefined) this.turns.delete(sessionId);
    else this.turns.set(sessionId, state);
  }

  /** Starts a span under `parent` (default: the active context). */
  start(
    name: string,
    kind: 'internal' | 'client',
    attributes: Attributes,
    parent?: Context,
    startTime?: number,
  ): { span: Span; context: Context } {
    const { api } = this;
    const base = parent ?? api.context.active();
    const span = this.tracer.startSpan(
      name,
      {
        kind: kind === 'client' ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL,
        attributes,
        ...(startTime === undefined ? {} : { startTime }),
      },
      base,
    );
    return { span, context: api.trace.setSpan(base, span) };
  }

  /** Sets a content attribute, only when prompts are logged. */
  content(span: Span, key: string, value: unknown): void {
    if (!this.logPrompts || value === undefined || !span.isRecording()) return;
    span.setAttribute(key, contentAttribute(value, this.maxContentLength));
  }

  /** Marks a span failed by a thrown value. */
  fail(span: Span, error: unknown): void {
    span.setAttribute(ATTR.errorType, errorTypeOf(error));
    span.setStatus({ code: this.api.SpanStatusCode.ERROR, message: errorMessage(error) });
    if (error instanceof Error) span.recordException(error);
  }

  /** Marks a span failed with an error type and message (a tool's or the model's answer, not a throw). */
  failWith(span: Span, type: string, message: string): void {
    span.setAttribute(ATTR.errorType, type);
    span.setStatus({ code: this.api.SpanStatusCode.ERROR, message });
  }
}
