/** The output formats of gemini-cli's headless mode. */
export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
/** One of {@link OUTPUT_FORMATS}. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** gemini-cli's approval modes (`--approval-mode`). */
export const APPROVAL_MODES = ['default', 'auto_edit', 'yolo', 'plan'] as const;
/** One of {@link APPROVAL_MODES}. */
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** The parsed and validated command line. */
export interface CliOptions {
  /** `-p/--prompt`. */
  prompt: string | undefined;
  /** Positional words, joined with spaces (a prompt given without `-p`). */
  positionalPrompt: string | undefined;
  /** `-m/--model`. */
  model: string | undefined;
  /** `--base-url`: an OpenAI-compatible server that serves the models without a provider prefix. */
  baseUrl: string | undefined;
  /** `--api-key-env`: the environment variable holding the `--base-url` server's API key. */
  apiKeyEnv: string | undefined;
  /** `-o/--output-format` (default `text`). */
  outputFormat: OutputFormat;
  /** `--approval-mode`, or `yolo` from `-y/--yolo`; undefined means the SDK default. */
  approvalMode: ApprovalMode | undefined;
  /** `-r/--resume`: `latest`, a 1-based index from `--list-sessions`, or a session id. */
  resume: string | undefined;
  /** `--session-id`: start a new session with this id. */
  sessionId: string | undefined;
  /** `--list-sessions`. */
  listSessions: boolean;
  /** `--show-config`: print the effective configuration of a run with these flags as JSON and exit. */
  showConfig: boolean;
  /** `--delete-session <index|id>`. */
  deleteSession: string | undefined;
  /** `--fake-responses <file>`: replay a recorded model instead of calling Gemini. */
  fakeResponses: string | undefined;
  /** `--record-responses <file>`: append every model response to this file. */
  recordResponses: string | undefined;
  /** `--skills <dir>` (repeatable): skill directories or roots of skill directories. */
  skills: string[];
  /** `--include-directories` (repeatable, comma-separated): extra workspace roots. */
  includeDirectories: string[];
  /** `--max-turns <n>`: model calls allowed for this prompt. */
  maxTurns: number | undefined;
  /**
   * `--max-cost <usd>`: the session's cost budget in US dollars, over its whole life (a resumed session counts what
   * it spent before); the run pauses before a model call that would cross it.
   */
  maxCostUsd: number | undefined;
  /** `--max-tokens <n>`: the session's budget of input and output tokens together, over its whole life. */
  maxTokens: number | undefined;
  /** `--policy` (repeatable, comma-separated): policy files or folders replacing `~/.gemini/policies`. */
  policy: string[] | undefined;
  /** `--admin-policy` (repeatable, comma-separated): more admin-tier policy files or folders. */
  adminPolicy: string[] | undefined;
  /** `--skip-trust`: trust the working folder for this run. */
  skipTrust: boolean;
  /** `--allowed-tools` (repeatable, comma-separated): tools allowed without asking (replaces `tools.allowed`). */
  allowedTools: string[] | undefined;
  /** `--allowed-mcp-server-names`: MCP servers whose tools are allowed (replaces `mcp.allowed`). */
  allowedMcpServerNames: string[] | undefined;
  /** `--acp` (or the deprecated `--experimental-acp`): serve the Agent Client Protocol on stdio. */
  acp: boolean;
  /** Only `--experimental-acp` was given (a deprecation warning is printed). */
  acpDeprecatedFlag: boolean;
  /** `--acp-terminal`: run shell commands in the editor's terminal when it offers one. */
  acpTerminal: boolean;
  /**
   * `-e/--extensions` (repeatable, comma-separated): the gemini-cli extensions to use (`none`: none); undefined
   * means all that are enabled.
   */
  extensions: string[] | undefined;
  /** `-l/--list-extensions`: list the available extensions and exit. */
  listExtensions: boolean;
  /** `-i/--prompt-interactive <text>`: run this prompt, then keep reading prompts from the terminal. */
  promptInteractive: string | undefined;
  /** `-s/--sandbox`: refused with a clear error (no container sandbox here). */
  sandbox: boolean;
  /**
   * `--raw-output` (or `--accept-raw-output-risk`): model text is printed as sent, escape sequences included,
   * instead of stripped of them.
   */
  rawOutput: boolean;
  /** `--accept-raw-output-risk`: no warning about `--raw-output`. */
  acceptRawOutputRisk: boolean;
  /** `-d/--debug`: SDK log lines on stderr. */
  debug: boolean;
  /** `-v/--version`. */
  version: boolean;
  /** `-h/--help`. */
  help: boolean;
}
