import type { AgentTool, ToolKind } from './agent-tool.js';
import type { SessionContext } from './session-context.js';
import type { InferToolInput, ToolInputSchema } from './tool-input-schema.js';

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

/** A custom tool made with `tool()`: its definition plus the action that runs it. */
export interface Tool<S extends ToolInputSchema = ToolInputSchema> extends ToolDefinition<S> {
  /**
   * Runs the tool with validated arguments (the schema's output: defaults and transforms applied) and a fresh
   * {@link SessionContext}. A string result is sent as is, anything else as pretty-printed JSON.
   */
  action(params: InferToolInput<S>, context: SessionContext): unknown;
}

/** Either kind of tool an agent (or a feature) accepts: a `tool()` definition or any {@link AgentTool}. */
export type AnyTool = Tool | AgentTool;

/**
 * Supplies tools for one model call. A provider is evaluated with a fresh {@link SessionContext} before **every**
 * model call, so the tool list may change between calls (skills enabled, MCP servers connected). `tool()`
 * definitions are adapted (once per tool object).
 */
export type ToolProvider = (
  ctx: SessionContext,
) => readonly AnyTool[] | Promise<readonly AnyTool[]>;
