import { ConfigurationError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { DEFAULT_MODEL } from '../model/models.js';

/** The models offered by default in the model selector (any id can be configured on the agent itself). */
export const DEFAULT_ACP_MODELS: readonly string[] = [
  DEFAULT_MODEL,
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-3-pro-preview',
  'gemini-3-flash-preview',
];

/** Options of {@link GeminiCliAcpServer}. */
export interface GeminiCliAcpServerOptions {
  /** Name, title and version announced in `initialize` (default `gemini-agent-sdk`, this package's version). */
  agentInfo?: { name: string; title?: string; version: string };
  /**
   * Where `run_shell_command` runs: `'local'` (default: in the agent's process group, as gemini-cli) or
   * `'client'`: in a terminal of the editor (`terminal/*`) when the client advertises the `terminal`
   * capability, else locally.
   */
  terminal?: 'local' | 'client';
  /**
   * Read and write files inside the session's cwd through the editor (`fs/read_text_file`,
   * `fs/write_text_file`) when it advertises them, so its unsaved buffers win (default true).
   */
  clientFilesystem?: boolean;
  /** Offer "Allow for this session" in permission requests (default true; gemini-cli's `disableAlwaysAllow`). */
  alwaysAllow?: boolean;
  /** Model ids offered in the model selector (default: the current Gemini models; the agent's model is added). */
  models?: readonly string[];
  /**
   * How long closing (client gone, `session/close`, `close()`) waits for a cancelled turn to settle before the
   * session is released anyway, in ms (default 5000).
   */
  shutdownGraceMs?: number;
  /** Largest incoming message, in bytes (default the ACP SDK's 32 MiB). */
  maxMessageBytes?: number;
  /** Where the server logs (default silent; the CLI passes a stderr logger with `--debug`). Never stdout. */
  logger?: Logger;
}

/** {@link GeminiCliAcpServerOptions} with defaults applied. */
export interface ResolvedAcpServerOptions {
  agentInfo: { name: string; title?: string; version: string };
  terminal: 'local' | 'client';
  clientFilesystem: boolean;
  alwaysAllow: boolean;
  models: readonly string[];
  shutdownGraceMs: number;
  maxMessageBytes: number | undefined;
  logger: Logger;
}

function positive(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw new ConfigurationError(`${name} must be a non-negative number (got ${String(value)}).`);
}

/**
 * Validates the server options.
 *
 * @throws ConfigurationError naming the bad option.
 */
export function resolveAcpServerOptions(
  options: GeminiCliAcpServerOptions,
  version: string,
): ResolvedAcpServerOptions {
  const terminal = options.terminal ?? 'local';
  if (terminal !== 'local' && terminal !== 'client') {
    throw new ConfigurationError(`terminal must be 'local' or 'client' (got ${String(terminal)}).`);
  }
  const models = options.models;
  if (
    models !== undefined &&
    (!Array.isArray(models) || models.some((m) => typeof m !== 'string' || m === ''))
  ) {
    throw new ConfigurationError('models must be an array of non-empty model ids.');
  }
  const info = options.agentInfo;
  if (info !== undefined && (typeof info.name !== 'string' || typeof info.version !== 'string')) {
    throw new ConfigurationError('agentInfo needs a name and a version (strings).');
  }
  const maxMessageBytes = positive(options.maxMessageBytes, 'maxMessageBytes');
  return {
    agentInfo: info ?? { name: 'gemini-agent-sdk', title: 'Gemini Agent SDK', version },
    terminal,
    clientFilesystem: options.clientFilesystem ?? true,
    alwaysAllow: options.alwaysAllow ?? true,
    models: models ?? DEFAULT_ACP_MODELS,
    shutdownGraceMs: positive(options.shutdownGraceMs, 'shutdownGraceMs') ?? 5000,
    maxMessageBytes: maxMessageBytes === 0 ? undefined : maxMessageBytes,
    logger: options.logger ?? silentLogger,
  };
}
