import type { Resource } from '@opentelemetry/resources';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { ConfigurationError, GeminiAgentError } from '../errors.js';
import { sdkVersion } from '../model/client-headers.js';
import type {
  TelemetryLoggerProvider,
  TelemetryMeterProvider,
  TelemetryTracerProvider,
} from './telemetry-options.js';
import type { ResolvedTelemetrySettings } from './telemetry-settings.js';

/** The packages an export needs besides `@opentelemetry/api`. */
export const TELEMETRY_EXPORT_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/resources',
  '@opentelemetry/context-async-hooks',
] as const;

/** A running export (see {@link startTelemetry}). */
export interface TelemetryExport {
  /** Pass it as the agent's `telemetry.tracerProvider`. */
  readonly tracerProvider: TelemetryTracerProvider;
  /**
   * gemini-cli's metrics, exported over the same OTLP protocol (pass it as `telemetry.meterProvider`); undefined
   * with `outfile`, or when `@opentelemetry/sdk-metrics` and the protocol's metrics exporter are not installed.
   */
  readonly meterProvider: TelemetryMeterProvider | undefined;
  /** gemini-cli's log records, likewise (`telemetry.loggerProvider`; `@opentelemetry/sdk-logs` and its exporter). */
  readonly loggerProvider: TelemetryLoggerProvider | undefined;
  /** The signals exported: `traces`, and `metrics` / `logs` when their packages are installed. */
  readonly signals: ReadonlyArray<'traces' | 'metrics' | 'logs'>;
  /** Where spans go, in words (`OTLP/HTTP http://…/v1/traces`, `file …`). */
  readonly destination: string;
  /**
   * Sends what is buffered.
   *
   * @throws GeminiAgentError (`TELEMETRY_EXPORT_FAILED`) when the destination refused it or could not be reached.
   */
  forceFlush(): Promise<void>;
  /**
   * Sends what is buffered and stops; call it before the process exits.
   *
   * @throws GeminiAgentError (`TELEMETRY_EXPORT_FAILED`) when the last export failed (the provider is stopped).
   */
  shutdown(): Promise<void>;
}

/** Where {@link startTelemetry} sends spans. */
export type TelemetryExportSettings = Pick<
  ResolvedTelemetrySettings,
  'otlpEndpoint' | 'otlpProtocol' | 'outfile'
> & {
  /** `service.name` of the spans' resource (default `gemini-agent`). */
  serviceName?: string;
  /** Extra resource attributes (e.g. `session.id`). */
  resource?: Record<string, string>;
};

async function load<T>(name: string, loader: () => Promise<T>): Promise<T> {
  try {
    return await loader();
  } catch (cause) {
    const exporter = name.startsWith('@opentelemetry/exporter')
      ? ` ${name}`
      : ' @opentelemetry/exporter-trace-otlp-grpc';
    throw new ConfigurationError(
      `Exporting telemetry needs the package ${name}, which is not installed: npm install ${TELEMETRY_EXPORT_PACKAGES.join(' ')}${exporter} (OpenTelemetry is an optional dependency of gemini-agent-sdk).`,
      { code: 'TELEMETRY_UNAVAILABLE', cause },
    );
  }
}

/** `<endpoint>/v1/traces`, keeping a path the endpoint already has (gemini-cli's rule). */
export function otlpHttpTracesUrl(endpoint: string): string {
  const url = new URL(endpoint);
  url.pathname = [url.pathname.replace(/\/$/, ''), 'v1/traces'].join('/');
  return url.href;
}

/**
 * Starts exporting spans as gemini-cli's `telemetry.*` settings say: to a file (`outfile`, one JSON span a line),
 * else over OTLP — gRPC to `otlpEndpoint` (default), or OTLP/HTTP to `<otlpEndpoint>/v1/traces` — with the official
 * OpenTelemetry exporters, batched. Registers an AsyncLocalStorage context manager when none is, so spans of work
 * a tool starts (a subagent) nest under the tool's span. Loads the OpenTelemetry packages (optional dependencies)
 * now.
 *
 * @throws ConfigurationError (`TELEMETRY_UNAVAILABLE`) naming the package to install when one is missing.
 */
export async function startTelemetry(settings: TelemetryExportSettings): Promise<TelemetryExport> {
  const api = await load('@opentelemetry/api', () => import('@opentelemetry/api'));
  const sdk = await load('@opentelemetry/sdk-trace', () => import('@opentelemetry/sdk-trace'));
  const resources = await load(
    '@opentelemetry/resources',
    () => import('@opentelemetry/resources'),
  );
  const hooks = await load(
    '@opentelemetry/context-async-hooks',
    () => import('@opentelemetry/context-async-hooks'),
  );
  api.context.setGlobalContextManager(new hooks.AsyncLocalStorageContextManager().enable());
  let exporter: SpanExporter;
  let destination: string;
  if (settings.outfile !== undefined) {
    const { FileSpanExporter } = await import('./file-span-exporter.js');
    exporter = new FileSpanExporter(settings.outfile);
    destination = `file ${settings.outfile}`;
  } else if (settings.otlpProtocol === 'http') {
    const http = await load(
      '@opentelemetry/exporter-trace-otlp-http',
      () => import('@opentelemetry/exporter-trace-otlp-http'),
    );
    const url = otlpHttpTracesUrl(settings.otlpEndpoint);
    exporter = new http.OTLPTraceExporter({ url });
    destination = `OTLP/HTTP ${url}`;
  } else {
    const grpc = await load(
      '@opentelemetry/exporter-trace-otlp-grpc',
      () => import('@opentelemetry/exporter-trace-otlp-grpc'),
    );
    const url = new URL(settings.otlpEndpoint).origin;
    exporter = new grpc.OTLPTraceExporter({ url });
    destination = `OTLP/gRPC ${url}`;
  }
  const resource = resources.resourceFromAttributes({
    'service.name': settings.serviceName ?? 'gemini-agent',
    'service.version': sdkVersion(),
    ...settings.resource,
  });
  const provider = new sdk.TracerProvider({
    resource,
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter })],
  });
  const metrics =
    settings.outfile === undefined
      ? await startMetrics(settings, resource).catch(() => undefined)
      : undefined;
  const logs =
    settings.outfile === undefined
      ? await startLogs(settings, resource).catch(() => undefined)
      : undefined;
  const failed = (cause: unknown): never => {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new GeminiAgentError(
      'TELEMETRY_EXPORT_FAILED',
      `Could not export telemetry to ${destination}: ${reason}. Check that a collector listens there (telemetry.otlpEndpoint / otlpProtocol); the agent's work is not affected.`,
      { cause },
    );
  };
  const all = (method: 'forceFlush' | 'shutdown') => async (): Promise<void> => {
    const results = await Promise.allSettled([
      provider[method](),
      metrics?.provider[method](),
      logs?.provider[method](),
    ]);
    for (const result of results) if (result.status === 'rejected') failed(result.reason);
  };
  return {
    tracerProvider: provider,
    meterProvider: metrics?.provider,
    loggerProvider: logs?.provider,
    signals: [
      'traces',
      ...(metrics ? (['metrics'] as const) : []),
      ...(logs ? (['logs'] as const) : []),
    ],
    destination,
    forceFlush: all('forceFlush'),
    shutdown: all('shutdown'),
  };
}

/** The OTLP URL of one signal: gRPC takes the endpoint's origin, HTTP `<endpoint>/v1/<signal>`. */
function signalUrl(settings: TelemetryExportSettings, signal: 'metrics' | 'logs'): string {
  if (settings.otlpProtocol !== 'http') return new URL(settings.otlpEndpoint).origin;
  const url = new URL(settings.otlpEndpoint);
  url.pathname = [url.pathname.replace(/\/$/, ''), `v1/${signal}`].join('/');
  return url.href;
}

/**
 * gemini-cli's metrics over OTLP: a `MeterProvider` reading every 10 s (and on flush); rejects when the packages
 * are not installed (metrics are then left out).
 */
async function startMetrics(settings: TelemetryExportSettings, resource: Resource) {
  const sdk = await import('@opentelemetry/sdk-metrics');
  const exporter =
    settings.otlpProtocol === 'http'
      ? new (await import('@opentelemetry/exporter-metrics-otlp-http')).OTLPMetricExporter({
          url: signalUrl(settings, 'metrics'),
        })
      : new (await import('@opentelemetry/exporter-metrics-otlp-grpc')).OTLPMetricExporter({
          url: signalUrl(settings, 'metrics'),
        });
  const reader = new sdk.PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 10_000 });
  return { provider: new sdk.MeterProvider({ resource, readers: [reader] }) };
}

/** gemini-cli's log records over OTLP, batched; rejects when the packages are not installed. */
async function startLogs(settings: TelemetryExportSettings, resource: Resource) {
  const sdk = await import('@opentelemetry/sdk-logs');
  const exporter =
    settings.otlpProtocol === 'http'
      ? new (await import('@opentelemetry/exporter-logs-otlp-http')).OTLPLogExporter({
          url: signalUrl(settings, 'logs'),
        })
      : new (await import('@opentelemetry/exporter-logs-otlp-grpc')).OTLPLogExporter({
          url: signalUrl(settings, 'logs'),
        });
  return {
    provider: new sdk.LoggerProvider({
      resource,
      processors: [new sdk.BatchLogRecordProcessor({ exporter })],
    }),
  };
}
