import type { CliIo } from './cli-io.js';
import {
  loadSettings,
  resolveTelemetrySettings,
  startTelemetry,
  type GeminiCliAgentOptions,
  type TelemetryExport,
} from './sdk.js';

/**
 * gemini-cli's telemetry for one `gemini-agent` run: the `telemetry.*` settings (and `GEMINI_TELEMETRY_*`, which
 * win) decide whether spans are exported and where. When they are on, the exporter starts now and the agent's
 * `telemetry` option gets its provider; when off, the agent gets `telemetry: { enabled: false }` (no spans, no
 * OpenTelemetry import, whatever is installed). The caller shuts the export down before exiting.
 *
 * @throws ConfigurationError for a bad `telemetry.*` value, or a missing OpenTelemetry package.
 */
export async function startCliTelemetry(
  agentOptions: GeminiCliAgentOptions,
  io: CliIo,
  sessionId: string | undefined,
): Promise<TelemetryExport | undefined> {
  const settings =
    agentOptions.settings === false
      ? undefined
      : loadSettings({
          cwd: agentOptions.cwd ?? io.cwd,
          ...(agentOptions.trustWorkspace === undefined
            ? {}
            : { trustWorkspace: agentOptions.trustWorkspace }),
        }).merged.telemetry;
  const resolved = resolveTelemetrySettings({ env: io.env ?? {}, settings });
  if (!resolved.enabled) {
    agentOptions.telemetry = { enabled: false };
    return undefined;
  }
  const exported = await startTelemetry({
    ...resolved,
    ...(sessionId === undefined ? {} : { resource: { 'session.id': sessionId } }),
  });
  agentOptions.telemetry = {
    tracerProvider: exported.tracerProvider,
    logPrompts: resolved.logPrompts,
  };
  if (agentOptions.logger !== undefined) {
    agentOptions.logger.info('telemetry: exporting spans', { to: exported.destination });
  }
  return exported;
}
