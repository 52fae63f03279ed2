/**
 * Span and attribute names: the OpenTelemetry GenAI semantic conventions (`gen_ai.*`), gemini-cli's tracer name,
 * and this SDK's own attributes under `gemini_agent.*`.
 */
export const TRACER_NAME = 'gemini-agent-sdk';

export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  requestTemperature: 'gen_ai.request.temperature',
  requestTopP: 'gen_ai.request.top_p',
  requestTopK: 'gen_ai.request.top_k',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cachedInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
  mcpMethod: 'mcp.method.name',
  mcpServer: 'gemini_agent.mcp.server.name',
  mcpToolName: 'gemini_agent.mcp.tool.name',
  attempt: 'gemini_agent.model.attempt',
  turn: 'gemini_agent.model.turn',
  thoughtTokens: 'gemini_agent.usage.thoughts_tokens',
  firstChunkMs: 'gemini_agent.response.first_chunk_ms',
  modelCalls: 'gemini_agent.turn.model_calls',
  toolCalls: 'gemini_agent.turn.tool_calls',
  resumed: 'gemini_agent.turn.resumed_approvals',
  toolKind: 'gemini_agent.tool.kind',
  decision: 'gemini_agent.tool.decision',
  decidedBy: 'gemini_agent.tool.decided_by',
  approvalWaitMs: 'gemini_agent.tool.approval_wait_ms',
  durationMs: 'gemini_agent.tool.duration_ms',
  held: 'gemini_agent.tool.held',
} as const;

/** Span events. */
export const EVENT = {
  retry: 'gen_ai.retry',
  compressed: 'gemini_agent.chat_compressed',
  warning: 'gemini_agent.warning',
  loopDetected: 'gemini_agent.loop_detected',
} as const;

/**
 * gemini-cli's tool-call decisions (`accept`, `reject`, `auto_accept`, as in its `tool_call` log records), plus
 * `deny` (a rule or a feature refused without asking) and `pause` (held for `resolveApprovals`).
 */
export type ToolCallDecision = 'auto_accept' | 'accept' | 'reject' | 'deny' | 'pause';

/** `gen_ai.provider.name` of a model id: its provider prefix (`openai:`, `ollama:`), else Gemini. */
export function providerOf(model: string | undefined): string {
  const prefix = model === undefined ? undefined : /^([a-z][\w-]*):/i.exec(model)?.[1];
  if (prefix === undefined || prefix === 'gemini') return 'gcp.gemini';
  return prefix.toLowerCase();
}
