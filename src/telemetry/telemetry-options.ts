import { z } from 'zod';

/**
 * The part of an OpenTelemetry `TracerProvider` the SDK uses. `@opentelemetry/api`'s `TracerProvider` (the global
 * one, or `new TracerProvider(...)` of `@opentelemetry/sdk-trace`) fits it; the SDK's public types do not import
 * `@opentelemetry/api`, so an app without it type-checks.
 */
export interface TelemetryTracerProvider {
  getTracer(name: string, version?: string, options?: { schemaUrl?: string }): unknown;
}

/** The part of an OpenTelemetry `MeterProvider` the SDK uses (`@opentelemetry/sdk-metrics`' fits). */
export interface TelemetryMeterProvider {
  getMeter(name: string, version?: string): unknown;
}

/** The part of an OpenTelemetry `LoggerProvider` the SDK uses (`@opentelemetry/sdk-logs`' fits). */
export interface TelemetryLoggerProvider {
  getLogger(name: string, version?: string): unknown;
}

/**
 * The agent's `telemetry` option: OpenTelemetry spans for every turn (`invoke_agent`), model call (`chat`) and tool
 * call (`execute_tool`), named as the OpenTelemetry GenAI semantic conventions name them. See docs/observability.md.
 */
export interface TelemetryOptions {
  /**
   * Record spans. Default: on when `@opentelemetry/api` can be loaded (the spans go to the global tracer provider,
   * which records nothing until an OpenTelemetry SDK is registered), else off. `false` adds nothing to the agent.
   */
  enabled?: boolean;
  /** Where spans go, instead of the global tracer provider. */
  tracerProvider?: TelemetryTracerProvider;
  /**
   * Where gemini-cli's metrics go (`gemini_cli.tool.call.count`, `gemini_cli.api.request.latency`,
   * `gemini_cli.token.usage`, …): an OpenTelemetry `MeterProvider`. Default: the global one, when an SDK registered
   * it; else no metrics.
   */
  meterProvider?: TelemetryMeterProvider;
  /**
   * Where gemini-cli's log records go (`gemini_cli.user_prompt`, `gemini_cli.api_response`, `gemini_cli.tool_call`,
   * …): an OpenTelemetry `LoggerProvider`. Default: the global one, when an SDK registered it; else no log records.
   */
  loggerProvider?: TelemetryLoggerProvider;
  /**
   * Put prompts, responses, system instructions, tool arguments and tool results on the spans
   * (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.tool.call.arguments`, …), truncated to
   * `maxContentLength` characters each. Default `false`: content is opt-in (gemini-cli's `telemetry.logPrompts`).
   */
  logPrompts?: boolean;
  /** `gen_ai.agent.name` of the `invoke_agent` spans (default `gemini-agent`). */
  agentName?: string;
  /** Longest content attribute, in characters (default 16384); longer text is cut and says how long it was. */
  maxContentLength?: number;
}

const flag = () => z.boolean({ error: 'expected true or false' });

/** The `telemetry` option's schema (checked with the agent's other options). */
export const TelemetryOptionsSchema = z.strictObject(
  {
    enabled: flag().optional(),
    tracerProvider: z
      .custom<TelemetryTracerProvider>(
        (v) =>
          typeof v === 'object' &&
          v !== null &&
          typeof (v as { getTracer?: unknown }).getTracer === 'function',
        { error: 'expected an OpenTelemetry TracerProvider (an object with getTracer())' },
      )
      .optional(),
    meterProvider: z
      .custom<TelemetryMeterProvider>(
        (v) =>
          typeof v === 'object' &&
          v !== null &&
          typeof (v as { getMeter?: unknown }).getMeter === 'function',
        { error: 'expected an OpenTelemetry MeterProvider (an object with getMeter())' },
      )
      .optional(),
    loggerProvider: z
      .custom<TelemetryLoggerProvider>(
        (v) =>
          typeof v === 'object' &&
          v !== null &&
          typeof (v as { getLogger?: unknown }).getLogger === 'function',
        { error: 'expected an OpenTelemetry LoggerProvider (an object with getLogger())' },
      )
      .optional(),
    logPrompts: flag().optional(),
    agentName: z.string({ error: 'expected a non-empty string' }).min(1).optional(),
    maxContentLength: z
      .number({ error: 'expected a positive integer' })
      .int({ error: 'expected a positive integer' })
      .min(1, { error: 'expected a positive integer' })
      .optional(),
  },
  { error: 'expected an object such as { enabled: true, logPrompts: false }' },
);
