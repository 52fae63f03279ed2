import type { SessionContext } from '../core/session-context.js';
import { ConfigurationError } from '../errors.js';
import type { ToolKind } from '../core/agent-tool.js';
import type { InferToolInput, ToolInputSchema } from './schema/input-schema.js';
import { adaptInputSchema } from './schema/schema-adapter.js';

/** The declaration half of a custom tool: what the model is told about it. */
export interface ToolDefinition<S extends ToolInputSchema = ToolInputSchema> {
  /** Function name the model calls (letters, digits, `_`, `.`, `:`, `-`; at most 64 characters). */
  name: string;
  /** What the tool does; the model reads this to decide when to call it. */
  description: string;
  /**
   * The arguments, as an object schema: zod 4 or zod 3 (`z.object({...})`), any Standard Schema (valibot,
   * arktype, …) or a plain JSON Schema object. Its JSON Schema is sent to the model; every call is validated
   * against it and then by the schema's own validator before the action runs.
   */
  inputSchema: S;
  /** When true, any error thrown by the action goes to the model as `{ error }` instead of failing the stream. */
  sendErrorsToModel?: boolean;
  /** What the tool does, for policies (default `other`). */
  kind?: ToolKind;
}

/** A custom tool made with {@link tool}: its definition plus the action that runs it. */
export interface Tool<S extends ToolInputSchema = ToolInputSchema> extends ToolDefinition<S> {
  /**
   * Runs the tool with validated arguments (the schema's output: defaults and transforms applied) and a fresh
   * {@link SessionContext}. A string result is sent as is, anything else as pretty-printed JSON.
   */
  action(params: InferToolInput<S>, context: SessionContext): unknown;
}

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
