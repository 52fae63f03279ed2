import type { Counter, Histogram, Meter } from '@opentelemetry/api';
import type { OtelApi } from './otel-api.js';

/** gemini-cli's metric names (packages/core/src/telemetry/metrics.ts), and the GenAI conventions' two. */
export const METRIC = {
  sessionCount: 'gemini_cli.session.count',
  toolCallCount: 'gemini_cli.tool.call.count',
  toolCallLatency: 'gemini_cli.tool.call.latency',
  apiRequestCount: 'gemini_cli.api.request.count',
  apiRequestLatency: 'gemini_cli.api.request.latency',
  tokenUsage: 'gemini_cli.token.usage',
  chatCompression: 'gemini_cli.chat_compression',
  contentRetryCount: 'gemini_cli.chat.content_retry.count',
  networkRetryCount: 'gemini_cli.network_retry.count',
  genAiTokenUsage: 'gen_ai.client.token.usage',
  genAiOperationDuration: 'gen_ai.client.operation.duration',
} as const;

/** gemini-cli's log event names (its `EVENT_*` constants). */
export const LOG_EVENT = {
  userPrompt: 'gemini_cli.user_prompt',
  apiRequest: 'gemini_cli.api_request',
  apiResponse: 'gemini_cli.api_response',
  apiError: 'gemini_cli.api_error',
  toolCall: 'gemini_cli.tool_call',
  chatCompression: 'gemini_cli.chat_compression',
  contentRetry: 'gemini_cli.chat.content_retry',
  networkRetry: 'gemini_cli.network_retry_attempt',
} as const;

/** The instruments of gemini-cli's metrics, created once per agent. */
export interface Instruments {
  sessions: Counter;
  toolCalls: Counter;
  toolLatency: Histogram;
  apiRequests: Counter;
  apiLatency: Histogram;
  tokens: Counter;
  compressions: Counter;
  contentRetries: Counter;
  networkRetries: Counter;
  genAiTokens: Histogram;
  genAiDuration: Histogram;
}

/** Creates gemini-cli's instruments on a meter (its names, descriptions, units). */
export function instruments(meter: Meter, api: OtelApi): Instruments {
  const int = { valueType: api.ValueType.INT };
  return {
    sessions: meter.createCounter(METRIC.sessionCount, {
      ...int,
      description: 'Count of CLI sessions started.',
    }),
    toolCalls: meter.createCounter(METRIC.toolCallCount, {
      ...int,
      description: 'Counts tool calls, tagged by function name and success.',
    }),
    toolLatency: meter.createHistogram(METRIC.toolCallLatency, {
      ...int,
      unit: 'ms',
      description: 'Latency of tool calls in milliseconds.',
    }),
    apiRequests: meter.createCounter(METRIC.apiRequestCount, {
      ...int,
      description: 'Counts API requests, tagged by model and status.',
    }),
    apiLatency: meter.createHistogram(METRIC.apiRequestLatency, {
      ...int,
      unit: 'ms',
      description: 'Latency of API requests in milliseconds.',
    }),
    tokens: meter.createCounter(METRIC.tokenUsage, {
      ...int,
      description: 'Counts the total number of tokens used.',
    }),
    compressions: meter.createCounter(METRIC.chatCompression, {
      ...int,
      description: 'Counts chat compression events.',
    }),
    contentRetries: meter.createCounter(METRIC.contentRetryCount, {
      ...int,
      description: 'Counts retries due to content errors (e.g., empty stream).',
    }),
    networkRetries: meter.createCounter(METRIC.networkRetryCount, {
      ...int,
      description: 'Counts network retries.',
    }),
    genAiTokens: meter.createHistogram(METRIC.genAiTokenUsage, {
      ...int,
      unit: '{token}',
      description: 'Number of input and output tokens used.',
    }),
    genAiDuration: meter.createHistogram(METRIC.genAiOperationDuration, {
      unit: 's',
      description: 'GenAI operation duration.',
    }),
  };
}
