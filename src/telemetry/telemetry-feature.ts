import type { Feature } from '../core/feature.js';
import { ConfigurationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { sdkVersion } from '../model/client-headers.js';
import { loadOtelApi, otelApiInstalled } from './otel-api.js';
import { DEFAULT_MAX_CONTENT_LENGTH } from './span-content.js';
import { TelemetryOptionsSchema, type TelemetryOptions } from './telemetry-options.js';
import { TelemetryRecorder } from './telemetry-recorder.js';
import { noteApprovalAsked, traceToolDecision, traceToolRun } from './tool-spans.js';
import { traceModelCall } from './model-spans.js';
import { traceTurn } from './turn-spans.js';

/** The feature's name (in errors and logs). */
export const TELEMETRY_FEATURE_NAME = 'telemetry';

/** What {@link createTelemetryFeature} needs besides the option. */
export interface TelemetryFeatureContext {
  readonly logger: Logger;
}

/**
 * The telemetry feature of an agent, or undefined when telemetry is off: `enabled: false`, or no `enabled` and no
 * `tracerProvider` while `@opentelemetry/api` is not installed. Nothing of OpenTelemetry is imported until the first
 * turn; with telemetry off the agent has no such feature at all.
 *
 * @throws ConfigurationError for a malformed option, or `enabled: true` without `@opentelemetry/api` installed.
 */
export function createTelemetryFeature(
  options: TelemetryOptions | undefined,
  context: TelemetryFeatureContext,
): Feature | undefined {
  const parsed = TelemetryOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : `.${issue.path.join('.')}`;
    throw new ConfigurationError(`telemetry${where}: ${issue?.message ?? 'invalid'}`);
  }
  const given: TelemetryOptions = options ?? {};
  if (given.enabled === false) return undefined;
  const installed = otelApiInstalled();
  if (!installed) {
    if (given.enabled === true || given.tracerProvider !== undefined) {
      throw new ConfigurationError(
        'Telemetry needs the @opentelemetry/api package: npm install @opentelemetry/api (and an OpenTelemetry SDK, e.g. @opentelemetry/sdk-trace, to export the spans).',
        { code: 'TELEMETRY_UNAVAILABLE' },
      );
    }
    return undefined;
  }
  let recorder: Promise<TelemetryRecorder | undefined> | undefined;
  const ready = (): Promise<TelemetryRecorder | undefined> => {
    recorder ??= loadOtelApi().then((api) => {
      if (api === undefined) {
        context.logger.warn(
          'telemetry: @opentelemetry/api could not be loaded; no spans are recorded',
        );
        return undefined;
      }
      return new TelemetryRecorder({
        api,
        tracerProvider: given.tracerProvider,
        meterProvider: given.meterProvider,
        loggerProvider: given.loggerProvider,
        logPrompts: given.logPrompts === true,
        agentName: given.agentName ?? 'gemini-agent',
        maxContentLength: given.maxContentLength ?? DEFAULT_MAX_CONTENT_LENGTH,
        version: sdkVersion(),
      });
    });
    return recorder;
  };
  // Once loaded, the interceptors use the recorder without awaiting anything.
  let loaded: TelemetryRecorder | null | undefined;
  const get = async (): Promise<TelemetryRecorder | null> => {
    loaded ??= (await ready()) ?? null;
    return loaded;
  };
  return {
    name: TELEMETRY_FEATURE_NAME,
    async initialize(session) {
      const recorder = await get();
      recorder?.signals?.sessionStarted(session.sessionId);
    },
    interceptTurn(turn, next) {
      if (loaded === null) return next();
      if (loaded !== undefined) return traceTurn(loaded, turn, next);
      return (async function* traced() {
        const recorder = await get();
        yield* recorder === null ? next() : traceTurn(recorder, turn, next);
      })();
    },
    interceptModel(call, next) {
      if (loaded === null) return next();
      if (loaded !== undefined) return traceModelCall(loaded, call, next);
      return get().then((r) => (r === null ? next() : traceModelCall(r, call, next)));
    },
    interceptToolDecision(check, next) {
      if (loaded === null) return next();
      if (loaded !== undefined) return traceToolDecision(loaded, check, next);
      return get().then((r) => (r === null ? next() : traceToolDecision(r, check, next)));
    },
    interceptTool(run, next) {
      if (loaded === null) return next();
      if (loaded !== undefined) return traceToolRun(loaded, run, next);
      return get().then((r) => (r === null ? next() : traceToolRun(r, run, next)));
    },
    async approvalRequested(notice) {
      const recorder = await get();
      if (recorder !== null) noteApprovalAsked(recorder, notice);
    },
  };
}
