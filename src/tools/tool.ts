import type { SessionContext } from '../core/session-context.js';
import { ConfigurationError } from '../errors.js';
import type { Tool, ToolDefinition } from '../core/tool-definition.js';
import type { InferToolInput, ToolInputSchema } from '../core/tool-input-schema.js';
import { adaptInputSchema } from './schema/schema-adapter.js';

/** Function names Gemini accepts. */
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

/**
 * Defines a custom tool. The input schema is sent to the model as JSON Schema and validates the arguments before
 * the action runs (a validation failure goes back to the model; the action does not run).
 *
 * @example
 * ```ts
 * const add = tool(
 *   { name: 'add', description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
 *   async ({ a, b }) => a + b,
 * );
 * ```
 * @throws ConfigurationError when the name, description or schema is unusable.
 */
export function tool<const S extends ToolInputSchema>(
  definition: ToolDefinition<S>,
  action: (params: InferToolInput<S>, context: SessionContext) => unknown,
): Tool<S> {
  const name: unknown = definition?.name;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new ConfigurationError(
      `Invalid tool name ${JSON.stringify(name)}: use 1-64 letters, digits, "_", ".", ":" or "-", ` +
        `starting with a letter or "_".`,
    );
  }
  if (typeof definition.description !== 'string') {
    throw new ConfigurationError(`Tool "${name}": description must be a string.`);
  }
  if (typeof action !== 'function') {
    throw new ConfigurationError(
      `Tool "${name}": the action (second argument) must be a function.`,
    );
  }
  // Fail early on schemas Gemini cannot take (the adapter is cached for the tool's lifetime).
  adaptInputSchema(name, definition.inputSchema);
  return { ...definition, action };
}
