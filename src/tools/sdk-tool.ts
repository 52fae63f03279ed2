import type { z } from 'zod';
import { ModelVisibleError } from './model-visible-error.js';
import type { Tool } from './tool.js';
import { renderToolOutput } from './tool-output.js';
import type { AgentTool, ToolResult, ToolValidation } from '../core/agent-tool.js';
import { formatZodIssues, zodToParametersJsonSchema } from './zod-json-schema.js';

const cache = new WeakMap<Tool, AgentTool>();

/**
 * Adapts a custom {@link Tool} (from `tool()`) to the loop's {@link AgentTool}: Zod validation, JSON Schema
 * declaration, result rendering, and the error rules (`ModelVisibleError` / `sendErrorsToModel` become
 * `{ error }` results; any other throw propagates and fails the stream). Cached per tool object.
 */
export function sdkToolToAgentTool(definition: Tool): AgentTool {
  const cached = cache.get(definition);
  if (cached) return cached;
  const schema: z.ZodType = definition.inputSchema;
  const name = definition.name;
  const adapted: AgentTool = {
    name,
    displayName: name,
    description: definition.description,
    kind: definition.kind ?? 'other',
    parametersJsonSchema: zodToParametersJsonSchema(name, schema),
    validate(args): ToolValidation {
      const parsed = schema.safeParse(args);
      if (!parsed.success) return { ok: false, error: formatZodIssues(name, parsed.error) };
      const data: unknown = parsed.data;
      if (typeof data !== 'object' || data === null || Array.isArray(data)) {
        return { ok: false, error: `Invalid arguments for tool "${name}": expected an object.` };
      }
      return { ok: true, args: data as Record<string, unknown> };
    },
    describe: () => `Executing ${name}...`,
    async execute(args, ctx): Promise<ToolResult> {
      try {
        const output = renderToolOutput(await definition.action(args, ctx));
        return { llmContent: output, returnDisplay: output };
      } catch (error) {
        if (definition.sendErrorsToModel === true || error instanceof ModelVisibleError) {
          const message = error instanceof Error ? error.message : String(error);
          return {
            llmContent: `Error: ${message}`,
            returnDisplay: `Error: ${message}`,
            error: { message },
          };
        }
        throw error;
      }
    },
  };
  cache.set(definition, adapted);
  return adapted;
}

/** True when `value` is an {@link AgentTool} (has `execute`) rather than a `tool()` definition. */
export function isAgentTool(value: Tool | AgentTool): value is AgentTool {
  return typeof (value as Partial<AgentTool>).execute === 'function';
}
