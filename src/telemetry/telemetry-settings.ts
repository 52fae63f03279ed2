import { ConfigurationError } from '../errors.js';
import type { z } from 'zod';
import type { TelemetrySettings } from '../settings/settings-schema.js';

/** gemini-cli's default OTLP endpoint (a collector on this machine, gRPC). */
export const DEFAULT_OTLP_ENDPOINT = 'http://localhost:4317';

/** Where spans are exported, resolved from flags, the environment and gemini-cli's `telemetry.*` settings. */
export interface ResolvedTelemetrySettings {
  /** `telemetry.enabled` (default false). */
  enabled: boolean;
  /** `local` (default) or `gcp` (only through a collector: `useCollector`). */
  target: 'local' | 'gcp';
  /** OTLP endpoint (default `http://localhost:4317`). */
  otlpEndpoint: string;
  /** `grpc` (default) or `http` (OTLP/HTTP with JSON bodies, to `<endpoint>/v1/traces`). */
  otlpProtocol: 'grpc' | 'http';
  /** Write spans to this file (one JSON object a line) instead of sending them. */
  outfile: string | undefined;
  /** Put prompts and responses on spans (default false). */
  logPrompts: boolean;
  useCollector: boolean;
}

/** Command-line overrides (gemini-cli's `--telemetry*` flags). */
export interface TelemetryFlagOverrides {
  telemetry?: boolean;
  telemetryTarget?: string;
  telemetryOtlpEndpoint?: string;
  telemetryOtlpProtocol?: string;
  telemetryLogPrompts?: boolean;
  telemetryOutfile?: string;
}

function envFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  return value === 'true' || value === '1';
}

/**
 * gemini-cli's resolution order for telemetry settings: flags, then `GEMINI_TELEMETRY_*` (and
 * `OTEL_EXPORTER_OTLP_ENDPOINT` for the endpoint), then the settings' `telemetry` object (`telemetry: true` is
 * `{ enabled: true }`).
 *
 * @throws ConfigurationError for an unknown target or protocol, a malformed endpoint, or `target: "gcp"` without
 *   `useCollector` (direct Google Cloud export is not built in).
 */
export function resolveTelemetrySettings(input: {
  flags?: TelemetryFlagOverrides;
  env?: Readonly<Record<string, string | undefined>>;
  settings?: z.infer<typeof TelemetrySettings>;
}): ResolvedTelemetrySettings {
  const flags = input.flags ?? {};
  const env = input.env ?? {};
  const raw = input.settings;
  const settings = typeof raw === 'boolean' ? { enabled: raw } : (raw ?? {});
  const enabled =
    flags.telemetry ?? envFlag(env['GEMINI_TELEMETRY_ENABLED']) ?? settings.enabled ?? false;
  const rawTarget = flags.telemetryTarget ?? env['GEMINI_TELEMETRY_TARGET'] ?? settings.target;
  if (rawTarget !== undefined && rawTarget !== 'local' && rawTarget !== 'gcp') {
    throw new ConfigurationError(
      `Invalid telemetry target: ${rawTarget}. Valid values are: local, gcp.`,
    );
  }
  const rawProtocol =
    flags.telemetryOtlpProtocol ?? env['GEMINI_TELEMETRY_OTLP_PROTOCOL'] ?? settings.otlpProtocol;
  if (rawProtocol !== undefined && rawProtocol !== 'grpc' && rawProtocol !== 'http') {
    throw new ConfigurationError(
      `Invalid telemetry OTLP protocol: ${rawProtocol}. Valid values are: grpc, http.`,
    );
  }
  const endpoint = (
    flags.telemetryOtlpEndpoint ??
    env['GEMINI_TELEMETRY_OTLP_ENDPOINT'] ??
    env['OTEL_EXPORTER_OTLP_ENDPOINT'] ??
    settings.otlpEndpoint ??
    DEFAULT_OTLP_ENDPOINT
  ).replace(/^["']|["']$/g, '');
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ConfigurationError(
      `Invalid telemetry OTLP endpoint: ${endpoint}. Give a URL such as http://localhost:4318.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(
      `Invalid telemetry OTLP endpoint: ${endpoint}. It must be an http:// or https:// URL.`,
    );
  }
  const useCollector =
    envFlag(env['GEMINI_TELEMETRY_USE_COLLECTOR']) ?? settings.useCollector ?? false;
  const target = rawTarget ?? 'local';
  if (enabled && target === 'gcp' && !useCollector) {
    throw new ConfigurationError(
      'telemetry.target "gcp" exports straight to Google Cloud, which gemini-agent does not build in: run an OpenTelemetry collector with its Google Cloud exporter and set telemetry.useCollector: true and telemetry.otlpEndpoint to the collector.',
    );
  }
  const outfile = flags.telemetryOutfile ?? env['GEMINI_TELEMETRY_OUTFILE'] ?? settings.outfile;
  return {
    enabled,
    target,
    otlpEndpoint: endpoint,
    otlpProtocol: rawProtocol ?? 'grpc',
    outfile: outfile === '' ? undefined : outfile,
    logPrompts:
      flags.telemetryLogPrompts ??
      envFlag(env['GEMINI_TELEMETRY_LOG_PROMPTS']) ??
      settings.logPrompts ??
      false,
    useCollector,
  };
}
