import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { ConfigurationError } from '../errors.js';
import { sdkVersion } from '../model/client-headers.js';
import type { TelemetryTracerProvider } from './telemetry-options.js';
import type { ResolvedTelemetrySettings } from './telemetry-settings.js';

/** The packages an export needs besides `@opentelemetry/api`. */
export const TELEMETRY_EXPORT_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/resources',
  '@opentelemetry/context-async-hooks',
] as const;

/** A running span export (see {@link startTelemetry}). */
export interface TelemetryExport {
  /** Pass it as the agent's `telemetry.tracerProvider`. */
  readonly tracerProvider: TelemetryTracerProvider;
  /** Where spans go, in words (`OTLP/HTTP http://…/v1/traces`, `file …`). */
  readonly destination: string;
  /** Sends what is buffered. */
  forceFlush(): Promise<void>;
  /** Sends what is buffered and stops; call it before the process exits. */
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
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': settings.serviceName ?? 'gemini-agent',
      'service.version': sdkVersion(),
      ...settings.resource,
    }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter })],
  });
  return {
    tracerProvider: provider,
    destination,
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
