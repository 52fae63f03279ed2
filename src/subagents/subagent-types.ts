import type { GenerateContentConfig } from '@google/genai';
import type { SessionContext } from '../core/session-context.js';
import type { StandardSchemaV1 } from '../core/standard-schema.js';
import type { AnyTool } from '../core/tool-definition.js';
import type { TokenUsage } from '../core/usage.js';

/** gemini-cli's `AgentTerminateMode`: why a subagent's run ended. */
export type SubagentTerminateMode =
  | 'GOAL'
  | 'MAX_TURNS'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'ERROR'
  | 'ERROR_NO_COMPLETE_TASK_CALL'
  | 'BUDGET_EXCEEDED';

/** gemini-cli's defaults: 30 turns, 10 minutes. */
export const DEFAULT_SUBAGENT_MAX_TURNS = 30;
/** gemini-cli's default time limit of a subagent run (10 minutes). */
export const DEFAULT_SUBAGENT_TIMEOUT_MS = 10 * 60 * 1000;

/** The instructions of a subagent: its system prompt, or a function of a fresh context returning it. */
export type SubagentInstructions = string | ((ctx: SessionContext) => string | Promise<string>);

/** Options of {@link subagent}. */
export interface SubagentOptions<Output = unknown> {
  /** Unique name: lower-case letters, digits, `-` and `_` (gemini-cli's slug). The parent calls it by it. */
  name: string;
  /** What it does; the parent model reads it in `<available_subagents>` to decide when to delegate. */
  description: string;
  /** A label for UIs (default: the name). */
  displayName?: string;
  /** Its system prompt (gemini-cli's `promptConfig.systemPrompt`), or `(ctx) => text`. */
  instructions: SubagentInstructions;
  /**
   * The tools it may use: names of the parent's tools, wildcards (`'*'` all of them, `'mcp_*'` every MCP tool,
   * `'mcp_<server>_*'` one server's), or `tool()` objects of its own. Omitted: every tool of the parent. Never
   * `invoke_agent` (subagents do not call subagents); `complete_task` is always added.
   */
  tools?: ReadonlyArray<string | AnyTool>;
  /** The model: `'inherit'` (default: the parent session's current model) or a model id. */
  model?: string;
  /** Generation settings over the model's defaults (temperature, topP, thinking, …). */
  generationConfig?: GenerateContentConfig;
  /** Model calls before the run ends with `MAX_TURNS` after one grace turn (default 30). */
  maxTurns?: number;
  /** Time limit of a run in ms (default 600 000); waiting for a human's approval does not count. */
  timeoutMs?: number;
  /**
   * What `complete_task` must submit (a zod schema or any Standard Schema with a JSON Schema): the model gets its
   * JSON Schema, the value is validated, and `run()` returns it typed as `output`.
   */
  output?: StandardSchemaV1<unknown, Output>;
  /** The `complete_task` argument that carries the output (default `result`). */
  outputName?: string;
  /** Turns the validated output into the result text the parent gets (default: a string as is, else JSON). */
  processOutput?: (output: Output) => string;
  /**
   * Its own MCP servers (gemini-cli's `mcp_servers`), by name, in the agent's `mcpServers` shape (`command` /
   * `args` / `env` / `cwd`, `httpUrl`, `url`, `trust`, `includeTools`, …). Started when a run starts, on the
   * agent's MCP terms (folder trust, `mcp.allowed` / `mcp.excluded`), closed when it ends; their tools
   * (`mcp_<server>_<tool>`) are offered to this subagent only, whatever `tools` lists.
   */
  mcpServers?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** A subagent definition, normalised: what the runner works from (also built from `.gemini/agents/*.md`). */
export interface ResolvedSubagent {
  readonly name: string;
  readonly description: string;
  readonly displayName: string | undefined;
  readonly instructions: SubagentInstructions;
  /** Undefined: all of the parent's tools. */
  readonly tools: ReadonlyArray<string | AnyTool> | undefined;
  readonly model: string;
  readonly generationConfig: GenerateContentConfig | undefined;
  readonly maxTurns: number;
  readonly timeoutMs: number;
  readonly output: StandardSchemaV1 | undefined;
  readonly outputName: string;
  readonly processOutput: ((output: unknown) => string) | undefined;
  /** Markdown agents: `${query}`, `${today}`, … are replaced in the instructions (gemini-cli's templating). */
  readonly templated: boolean;
  /** Where it was defined: `code`, or the file it was loaded from. */
  readonly source: string;
  /** Its own MCP servers: `mcpServers`, or a markdown agent's `mcp_servers` (raw configs, keyed by name). */
  readonly mcpServers: Readonly<Record<string, Record<string, unknown>>> | undefined;
}

/** What a run of a subagent hands back. */
export interface SubagentRunResult<Output = unknown> {
  /** The run's id: its transcript is `chats/<parentSessionId>/<agentId>.jsonl`. */
  agentId: string;
  terminateReason: SubagentTerminateMode;
  /** The result text (what the parent model gets after `Result:`). */
  result: string;
  /** The validated `complete_task` value when the run reached its goal with an `output` schema. */
  output: Output | undefined;
  /** Model calls made (the grace turn included). */
  turns: number;
  durationMs: number;
  /** The run's own token usage. */
  usage: TokenUsage;
}
