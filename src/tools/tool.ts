import type { z } from 'zod';
import type { SessionContext } from '../core/session-context.js';
import { ConfigurationError } from '../errors.js';
import type { ToolKind } from '../core/agent-tool.js';
import { zodToParametersJsonSchema } from './zod-json-schema.js';

/** The declaration half of a custom tool: what the model is told about it. */
export interface ToolDefinition<T extends z.ZodType> {
  /** Function name the model calls (letters, digits, `_`, `.`, `:`, `-`; at most 64 characters). */
  name: string;
  /** What the tool does; the model reads this to decide when to call it. */
  description: string;
  /** A `z.object({...})` describing the arguments; sent as JSON Schema and used to validate every call. */
  inputSchema: T;
  /** When true, any error thrown by the action goes to the model as `{ error }` instead of failing the stream. */
  sendErrorsToModel?: boolean;
  /** What the tool does, for policies (default `other`). */
  kind?: ToolKind;
}

/** A custom tool made with {@link tool}: its definition plus the action that runs it. */
export interface Tool<T extends z.ZodType = z.ZodType> extends ToolDefinition<T> {
  /**
   * Runs the tool with validated arguments and a fresh {@link SessionContext}. A string result is sent as is,
   * anything else as pretty-printed JSON.
   */
  action(params: z.infer<T>, context: SessionContext): unknown;
}

/** Function names Gemini accepts. */
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

/**
 * Defines a custom tool. The Zod schema is sent to the model as JSON Schema and validates the arguments before
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
export function tool<T extends z.ZodType>(
  definition: ToolDefinition<T>,
  action: (params: z.infer<T>, context: SessionContext) => unknown,
): Tool<T> {
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
  const schema: unknown = definition.inputSchema;
  if (
    typeof schema !== 'object' ||
    schema === null ||
    typeof (schema as { safeParse?: unknown }).safeParse !== 'function'
  ) {
    throw new ConfigurationError(
      `Tool "${name}": inputSchema must be a zod schema, e.g. z.object({ a: z.number() }) ` +
        `(import { z } from 'gemini-agent-sdk').`,
    );
  }
  if (typeof action !== 'function') {
    throw new ConfigurationError(
      `Tool "${name}": the action (second argument) must be a function.`,
    );
  }
  // Fail early on schemas Gemini cannot take.
  zodToParametersJsonSchema(name, definition.inputSchema);
  return { ...definition, action };
}
