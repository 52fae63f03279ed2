import type { Attributes, Logger, Meter } from '@opentelemetry/api';
import { instruments, LOG_EVENT, type Instruments } from './cli-signal-names.js';
import type { OtelApi } from './otel-api.js';
import type { TelemetryLoggerProvider, TelemetryMeterProvider } from './telemetry-options.js';
import { contentAttribute } from './span-content.js';

/** gemini-cli's instrumentation scope (its `SERVICE_NAME`) for metrics and log records. */
export const CLI_SCOPE = 'gemini-cli';

/** One model call's outcome, as the signals record it. */
export interface ApiCallFacts {
  sessionId: string;
  promptId: string;
  model: string;
  provider: string;
  durationMs: number;
  usage:
    | {
        input: number;
        output: number;
        cached: number;
        thoughts: number;
        tool: number;
        total: number;
      }
    | undefined;
  finishReasons: string[];
  /** The response text (recorded with `logPrompts` only). */
  text: string | undefined;
}

/** One tool call's outcome. */
export interface ToolCallFacts {
  sessionId: string;
  promptId: string;
  name: string;
  args: Record<string, unknown>;
  durationMs: number;
  success: boolean;
  /** gemini-cli's decision: `accept`, `reject`, `auto_accept` (and ours: `deny`, `pause`). */
  decision: string | undefined;
  /** `mcp` or `native`. */
  toolType: 'mcp' | 'native';
  mcpServer: string | undefined;
  error: string | undefined;
  errorType: string | undefined;
}

/** A retried model request. */
export interface RetryFacts {
  sessionId: string;
  model: string | undefined;
  attempt: number;
  delayMs: number;
  phase: 'connect' | 'stream';
  reason: string;
}

/**
 * gemini-cli's metrics and log records (its names, attributes and bodies), for the agent's sessions: recorded by
 * the telemetry feature next to its spans, through the OpenTelemetry metrics and logs APIs. Either side may be
 * missing (no meter provider, no logger provider). Content (prompts, responses, tool arguments) goes into the log
 * records only with `logPrompts`.
 */
export class CliSignals {
  private readonly metrics: Instruments | undefined;
  private readonly logger: Logger | undefined;

  constructor(
    private readonly api: OtelApi,
    sinks: { meter: Meter | undefined; logger: Logger | undefined },
    private readonly settings: { logPrompts: boolean; maxContentLength: number },
  ) {
    this.metrics = sinks.meter === undefined ? undefined : instruments(sinks.meter, api);
    this.logger = sinks.logger;
  }

  /**
   * The signals of an agent: the providers given, else the global ones when an SDK registered them (the API's
   * no-op meter and its unregistered logger proxy record nothing, so they are skipped); undefined when neither
   * side records.
   */
  static create(
    api: OtelApi,
    providers: {
      meterProvider: TelemetryMeterProvider | undefined;
      loggerProvider: TelemetryLoggerProvider | undefined;
    },
    settings: { logPrompts: boolean; maxContentLength: number; version: string },
  ): CliSignals | undefined {
    let meter: Meter | undefined;
    if (providers.meterProvider !== undefined) {
      meter = providers.meterProvider.getMeter(CLI_SCOPE, settings.version) as Meter;
    } else {
      const global = api.metrics.getMeterProvider().getMeter(CLI_SCOPE, settings.version);
      if (global.constructor !== api.createNoopMeter().constructor) meter = global;
    }
    let logger: Logger | undefined;
    const logs = (api as Partial<OtelApi>).logs;
    if (providers.loggerProvider !== undefined) {
      logger = providers.loggerProvider.getLogger(CLI_SCOPE, settings.version) as Logger;
    } else if (logs !== undefined) {
      // Before an SDK registers one, the global logger provider is the API's proxy (it records nothing).
      const global = logs.getLoggerProvider();
      if (global.constructor.name !== 'ProxyLoggerProvider') {
        logger = global.getLogger(CLI_SCOPE, settings.version);
      }
    }
    if (meter === undefined && logger === undefined) return undefined;
    return new CliSignals(api, { meter, logger }, settings);
  }

  /** A session started (gemini-cli counts one per CLI session). */
  sessionStarted(sessionId: string): void {
    this.metrics?.sessions.add(1, { 'session.id': sessionId });
  }

  /** A prompt was sent (`gemini_cli.user_prompt`). */
  userPrompt(sessionId: string, promptId: string, text: string): void {
    this.emit(sessionId, LOG_EVENT.userPrompt, `User prompt. Length: ${text.length}.`, {
      prompt_length: text.length,
      prompt_id: promptId,
      ...this.content('prompt', text),
    });
  }

  /** A model request was sent (`gemini_cli.api_request`). */
  apiRequest(sessionId: string, promptId: string, model: string): void {
    this.emit(sessionId, LOG_EVENT.apiRequest, `API request to ${model}.`, {
      model,
      prompt_id: promptId,
    });
  }

  /** A model response ended (`gemini_cli.api_response`, request count and latency, token usage). */
  apiResponse(facts: ApiCallFacts): void {
    const session = { 'session.id': facts.sessionId };
    const m = this.metrics;
    if (m !== undefined) {
      m.apiRequests.add(1, { ...session, model: facts.model, status_code: 'ok' });
      m.apiLatency.record(Math.round(facts.durationMs), { ...session, model: facts.model });
      const genAi = {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': facts.provider,
        'gen_ai.request.model': facts.model,
      };
      m.genAiDuration.record(facts.durationMs / 1000, genAi);
      const u = facts.usage;
      if (u !== undefined) {
        const counts: Array<[string, number]> = [
          ['input', u.input],
          ['output', u.output],
          ['thought', u.thoughts],
          ['cache', u.cached],
          ['tool', u.tool],
        ];
        for (const [type, count] of counts) {
          if (count > 0) m.tokens.add(count, { ...session, model: facts.model, type });
        }
        m.genAiTokens.record(u.input, { ...genAi, 'gen_ai.token.type': 'input' });
        m.genAiTokens.record(u.output, { ...genAi, 'gen_ai.token.type': 'output' });
      }
    }
    const u = facts.usage;
    this.emit(
      facts.sessionId,
      LOG_EVENT.apiResponse,
      `API response from ${facts.model}. Status: 200. Duration: ${Math.round(facts.durationMs)}ms.`,
      {
        model: facts.model,
        duration_ms: Math.round(facts.durationMs),
        input_token_count: u?.input ?? 0,
        output_token_count: u?.output ?? 0,
        cached_content_token_count: u?.cached ?? 0,
        thoughts_token_count: u?.thoughts ?? 0,
        tool_token_count: u?.tool ?? 0,
        total_token_count: u?.total ?? 0,
        prompt_id: facts.promptId,
        status_code: 200,
        finish_reasons: facts.finishReasons,
        ...this.content('response_text', facts.text),
      },
    );
  }

  /** A model request failed (`gemini_cli.api_error`, request count with the error, latency). */
  apiError(
    facts: Pick<ApiCallFacts, 'sessionId' | 'promptId' | 'model' | 'durationMs'> & {
      message: string;
      errorType: string;
      status: number | undefined;
    },
  ): void {
    const session = { 'session.id': facts.sessionId };
    this.metrics?.apiRequests.add(1, {
      ...session,
      model: facts.model,
      status_code: facts.status ?? 'error',
      error_type: facts.errorType,
    });
    this.metrics?.apiLatency.record(Math.round(facts.durationMs), {
      ...session,
      model: facts.model,
    });
    this.emit(
      facts.sessionId,
      LOG_EVENT.apiError,
      `API error for ${facts.model}. Error: ${facts.message}. Duration: ${Math.round(facts.durationMs)}ms.`,
      {
        'error.message': facts.message,
        'error.type': facts.errorType,
        model: facts.model,
        error: facts.message,
        duration_ms: Math.round(facts.durationMs),
        prompt_id: facts.promptId,
        ...(facts.status === undefined ? {} : { status_code: facts.status }),
      },
    );
  }

  /** A tool call was answered (`gemini_cli.tool_call`, tool call count and latency). */
  toolCall(facts: ToolCallFacts): void {
    const session = { 'session.id': facts.sessionId };
    this.metrics?.toolCalls.add(1, {
      ...session,
      function_name: facts.name,
      success: facts.success,
      ...(facts.decision === undefined ? {} : { decision: facts.decision }),
      tool_type: facts.toolType,
    });
    this.metrics?.toolLatency.record(Math.round(facts.durationMs), {
      ...session,
      function_name: facts.name,
    });
    const decision = facts.decision === undefined ? '' : `. Decision: ${facts.decision}`;
    this.emit(
      facts.sessionId,
      LOG_EVENT.toolCall,
      `Tool call: ${facts.name}${decision}. Success: ${facts.success}. Duration: ${Math.round(facts.durationMs)}ms.`,
      {
        function_name: facts.name,
        duration_ms: Math.round(facts.durationMs),
        success: facts.success,
        ...(facts.decision === undefined ? {} : { decision: facts.decision }),
        prompt_id: facts.promptId,
        tool_type: facts.toolType,
        ...(facts.mcpServer === undefined ? {} : { mcp_server_name: facts.mcpServer }),
        ...this.content('function_args', facts.args),
        ...(facts.error === undefined
          ? {}
          : {
              error: facts.error,
              'error.message': facts.error,
              ...(facts.errorType === undefined
                ? {}
                : { error_type: facts.errorType, 'error.type': facts.errorType }),
            }),
      },
    );
  }

  /** The history was compressed (`gemini_cli.chat_compression`). */
  compressed(sessionId: string, before: number, after: number): void {
    this.metrics?.compressions.add(1, {
      'session.id': sessionId,
      tokens_before: before,
      tokens_after: after,
    });
    this.emit(
      sessionId,
      LOG_EVENT.chatCompression,
      `Chat compression (Saved ${before - after} tokens)`,
      {
        tokens_before: before,
        tokens_after: after,
      },
    );
  }

  /** A model request is sent again (a content retry mid-stream, or a network retry before the response). */
  retried(facts: RetryFacts): void {
    const session = { 'session.id': facts.sessionId };
    if (facts.phase === 'stream') {
      this.metrics?.contentRetries.add(1, session);
      this.emit(
        facts.sessionId,
        LOG_EVENT.contentRetry,
        `Content retry attempt ${facts.attempt} due to ${facts.reason}.`,
        {
          attempt_number: facts.attempt,
          error_type: facts.reason,
          retry_delay_ms: facts.delayMs,
          ...(facts.model === undefined ? {} : { model: facts.model }),
        },
      );
      return;
    }
    this.metrics?.networkRetries.add(1, session);
    this.emit(
      facts.sessionId,
      LOG_EVENT.networkRetry,
      `Network retry attempt ${facts.attempt} due to ${facts.reason}.`,
      { attempt: facts.attempt, error_type: facts.reason, delay_ms: facts.delayMs },
    );
  }

  private content(key: string, value: unknown): Attributes {
    if (!this.settings.logPrompts || value === undefined) return {};
    return { [key]: contentAttribute(value, this.settings.maxContentLength) };
  }

  private emit(sessionId: string, event: string, body: string, attributes: Attributes): void {
    const logger = this.logger;
    if (logger === undefined) return;
    const now = new Date();
    logger.emit({
      eventName: event,
      body,
      severityNumber: this.api.SeverityNumber.INFO,
      severityText: 'INFO',
      timestamp: now,
      attributes: {
        'session.id': sessionId,
        interactive: false,
        'event.name': event,
        'event.timestamp': now.toISOString(),
        ...attributes,
      },
    });
  }
}
