/**
 * gemini-cli's hook protocol as types: the 11 events, the JSON each hook receives (stdin of a command hook, the
 * first argument of an in-process one) and the JSON it may answer with, as event-name → type maps.
 */

/** The 11 hook events, in gemini-cli's order. */
export const HOOK_EVENT_NAMES = [
  'BeforeTool',
  'AfterTool',
  'BeforeAgent',
  'Notification',
  'AfterAgent',
  'SessionStart',
  'SessionEnd',
  'PreCompress',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
] as const;

/** One of the {@link HOOK_EVENT_NAMES}. */
export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/** True for one of gemini-cli's 11 hook event names (case-sensitive, as gemini-cli). */
export function isHookEventName(value: unknown): value is HookEventName {
  return typeof value === 'string' && (HOOK_EVENT_NAMES as readonly string[]).includes(value);
}

/** Why a session started: `startup` (a new session), `resume` (a stored one), `clear` (gemini-cli's `/clear`). */
export type SessionStartSource = 'startup' | 'resume' | 'clear';
/** Why a session ended (the SDK sends `exit` on `session.close()`). */
export type SessionEndReason = 'exit' | 'clear' | 'logout' | 'prompt_input_exit' | 'other';
/** What started a context compression. */
export type PreCompressTrigger = 'manual' | 'auto';
/** The only notification gemini-cli sends: a tool call is about to ask for approval. */
export type NotificationType = 'ToolPermission';

/**
 * The arguments of a tool call. The keys gemini-cli's built-in tools use are typed (so
 * `input.tool_input.file_path?.endsWith('.env')` type-checks); every other key is `unknown`.
 */
export interface ToolInput {
  /** `read_file`, `write_file`, `replace`: the file. */
  file_path?: string;
  /** `write_file`: the new content. */
  content?: string;
  /** `replace`: the text to replace. */
  old_string?: string;
  /** `replace`: the replacement. */
  new_string?: string;
  /** `run_shell_command`: the command line. */
  command?: string;
  /** `run_shell_command`: what the command does. */
  description?: string;
  /** `list_directory`, `run_shell_command`, `glob`, `grep_search`: the folder. */
  dir_path?: string;
  /** `glob`, `grep_search`: the pattern. */
  pattern?: string;
  /** `web_fetch`: the prompt with URLs. */
  prompt?: string;
  /** `activate_skill`: the skill. */
  name?: string;
  [key: string]: unknown;
}

/** Non-secret facts about the MCP server behind a tool (MCP tools only). */
export interface McpToolContext {
  server_name: string;
  /** The server's own name for the tool. */
  tool_name: string;
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
  tcp?: string;
}

/** A model request in gemini-cli's stable hook format (text only). */
export interface LLMRequest {
  model: string;
  messages: Array<{
    role: 'user' | 'model' | 'system';
    content: string | Array<{ type: string; [key: string]: unknown }>;
  }>;
  config?: {
    temperature?: number;
    maxOutputTokens?: number;
    topP?: number;
    topK?: number;
    stopSequences?: string[];
    candidateCount?: number;
    presencePenalty?: number;
    frequencyPenalty?: number;
    [key: string]: unknown;
  };
  toolConfig?: HookToolConfig;
}

/** One streamed model response chunk in gemini-cli's stable hook format (text parts only). */
export interface LLMResponse {
  text?: string;
  candidates: Array<{
    content: { role: 'model'; parts: string[] };
    finishReason?: 'STOP' | 'MAX_TOKENS' | 'SAFETY' | 'RECITATION' | 'OTHER';
    index?: number;
    safetyRatings?: Array<{ category: string; probability: string; blocked?: boolean }>;
  }>;
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    totalTokenCount?: number;
  };
}

/** Function-calling configuration as BeforeToolSelection hooks see and set it. */
export interface HookToolConfig {
  mode?: 'AUTO' | 'ANY' | 'NONE';
  allowedFunctionNames?: string[];
}

/** What a tool returned, as AfterTool hooks see it. */
export interface HookToolResponse {
  /** What the model gets (text, or parts). */
  llmContent: unknown;
  /** What a user sees. */
  returnDisplay: unknown;
  /** Set when the call failed. */
  error: { message: string; type?: string } | undefined;
}

/** The fields every hook input has. */
export interface HookInputBase<E extends HookEventName = HookEventName> {
  session_id: string;
  /** The session file (`''` when the session is not stored in a file). */
  transcript_path: string;
  cwd: string;
  hook_event_name: E;
  /** ISO-8601 time the event fired. */
  timestamp: string;
}

/** The event-specific input fields, by event. */
export interface HookInputFields {
  BeforeTool: {
    tool_name: string;
    tool_input: ToolInput;
    mcp_context?: McpToolContext;
    /** Set when this call is an AfterTool hook's tail call: the name of the call it replaces. */
    original_request_name?: string;
  };
  AfterTool: {
    tool_name: string;
    tool_input: ToolInput;
    tool_response: HookToolResponse;
    mcp_context?: McpToolContext;
    original_request_name?: string;
  };
  BeforeAgent: { prompt: string };
  AfterAgent: {
    /** The prompt that started the turn. */
    prompt: string;
    /** Everything the model said in the turn, or `[no response text]`. */
    prompt_response: string;
    /** True when the turn is an AfterAgent hook's retry. */
    stop_hook_active: boolean;
  };
  BeforeModel: { llm_request: LLMRequest };
  AfterModel: { llm_request: LLMRequest; llm_response: LLMResponse };
  BeforeToolSelection: { llm_request: LLMRequest };
  SessionStart: { source: SessionStartSource };
  SessionEnd: { reason: SessionEndReason };
  PreCompress: { trigger: PreCompressTrigger };
  Notification: {
    notification_type: NotificationType;
    /** `Tool <title> requires editing|execution|MCP|information`, or `Tool requires confirmation`. */
    message: string;
    /** The approval's details: always `type` and `title`, then what that kind of approval shows. */
    details: Record<string, unknown>;
  };
}

/** What a hook of event `E` receives: `HookInput<'BeforeTool'>` has `tool_name` and `tool_input`. */
export type HookInput<E extends HookEventName = HookEventName> = E extends HookEventName
  ? HookInputBase<E> & HookInputFields[E]
  : never;

/** A hook's verdict: `deny` and `block` block; `ask` (BeforeTool only) forces an approval; the others allow. */
export type HookDecision = 'allow' | 'approve' | 'deny' | 'block' | 'ask';

/** The fields every hook output may have. */
export interface HookOutputBase {
  /** `false` stops the agent (tool, agent and model events). */
  continue?: boolean;
  /** Why the agent stops (preferred over `reason`). */
  stopReason?: string;
  /** Hides `systemMessage` from logs. */
  suppressOutput?: boolean;
  /** Shown to the user (a `hook_system_message` event); never sent to the model. */
  systemMessage?: string;
  decision?: HookDecision;
  /** Why the hook blocked; the model sees it for tool events. */
  reason?: string;
}

/** The event-specific output fields (`hookSpecificOutput`), by event. */
export interface HookSpecificOutputFields {
  BeforeTool: { tool_input?: ToolInput };
  AfterTool: {
    additionalContext?: string;
    /** Runs this call next, under the same call id; its result replaces this one's. */
    tailToolCallRequest?: { name: string; args: Record<string, unknown> };
  };
  BeforeAgent: { additionalContext?: string };
  AfterAgent: { clearContext?: boolean };
  BeforeModel: { llm_request?: Partial<LLMRequest>; llm_response?: LLMResponse };
  AfterModel: { llm_response?: Partial<LLMResponse> };
  BeforeToolSelection: { toolConfig?: HookToolConfig };
  SessionStart: { additionalContext?: string };
  SessionEnd: Record<string, never>;
  PreCompress: Record<string, never>;
  Notification: Record<string, never>;
}

/** What a hook of event `E` may answer: `HookOutput<'BeforeTool'>` may rewrite `hookSpecificOutput.tool_input`. */
export type HookOutput<E extends HookEventName = HookEventName> = E extends HookEventName
  ? HookOutputBase & {
      hookSpecificOutput?: { hookEventName?: E } & HookSpecificOutputFields[E];
    }
  : never;

/** A hook output of any event, as the runner and the aggregator handle it. */
export interface AnyHookOutput extends HookOutputBase {
  hookSpecificOutput?: Record<string, unknown>;
}

/** The source of a registered hook; lower runs first (gemini-cli's priority: runtime, project, user, system, extensions). */
export type HookSource = 'runtime' | 'project' | 'user' | 'system' | 'extensions';

/** gemini-cli's order of sources (lower runs first). */
export const HOOK_SOURCE_PRIORITY: Readonly<Record<HookSource, number>> = {
  runtime: 0,
  project: 1,
  user: 2,
  system: 3,
  extensions: 4,
};
