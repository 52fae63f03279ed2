import { z } from 'zod';

const timestamp = z.iso.datetime();

/** Our fields of a subagent's line: the subagent, and the parent's `invoke_agent` call it runs in. */
const nested = {
  agent_name: z.string().min(1).optional(),
  parent_tool_id: z.string().min(1).optional(),
};

const ModelStats = z.strictObject({
  total_tokens: z.number().int().nonnegative(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cached: z.number().int().nonnegative(),
  input: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative().nullable(),
});

/**
 * One line of `--output-format stream-json`, with exactly gemini-cli's event types and fields
 * (spec-model-sessions.md §9.3). Strict objects: an extra or misspelt field fails the parse. Our additions,
 * documented: `tool_result.output` is also present on errors when the tool produced output, `result.stats`
 * (and each model's entry) carries `cost_usd` (null for a model without a price), and a subagent's `tool_use`,
 * `tool_result` and `error` lines carry `agent_name` and `parent_tool_id` (docs/subagents.md).
 */
export const StreamJsonLine = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('init'),
    timestamp,
    session_id: z.string().min(1),
    model: z.string().min(1),
  }),
  z.strictObject({
    type: z.literal('message'),
    timestamp,
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    delta: z.literal(true).optional(),
  }),
  z.strictObject({
    type: z.literal('tool_use'),
    timestamp,
    tool_name: z.string().min(1),
    tool_id: z.string().min(1),
    parameters: z.record(z.string(), z.unknown()),
    ...nested,
  }),
  z.strictObject({
    type: z.literal('tool_result'),
    timestamp,
    tool_id: z.string().min(1),
    status: z.enum(['success', 'error']),
    output: z.string().optional(),
    error: z.strictObject({ type: z.string(), message: z.string() }).optional(),
    ...nested,
  }),
  z.strictObject({
    type: z.literal('error'),
    timestamp,
    severity: z.enum(['warning', 'error']),
    message: z.string().min(1),
    ...nested,
  }),
  z.strictObject({
    type: z.literal('result'),
    timestamp,
    status: z.enum(['success', 'error']),
    error: z.strictObject({ type: z.string(), message: z.string() }).optional(),
    stats: z.strictObject({
      ...ModelStats.shape,
      duration_ms: z.number().int().nonnegative(),
      tool_calls: z.number().int().nonnegative(),
      cost_usd: z.number().nonnegative(),
      models: z.record(z.string(), ModelStats),
    }),
  }),
]);
/** One parsed stream-json line. */
export type StreamJsonLine = z.infer<typeof StreamJsonLine>;

/** Parses every stdout line against {@link StreamJsonLine}; throws on the first line that does not fit. */
export function parseStreamJson(stdout: string): StreamJsonLine[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const result = StreamJsonLine.safeParse(JSON.parse(line));
      if (!result.success) {
        throw new Error(
          `stream-json line ${index + 1} does not match gemini's schema: ${line}\n${result.error.message}`,
        );
      }
      return result.data;
    });
}
