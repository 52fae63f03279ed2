import { parseArgs } from 'node:util';
import { CliFlagError, CliUsageError } from './cli-errors.js';
import {
  APPROVAL_MODES,
  OUTPUT_FORMATS,
  type ApprovalMode,
  type CliOptions,
  type OutputFormat,
} from './cli-options.js';

const OPTIONS = {
  prompt: { type: 'string', short: 'p' },
  model: { type: 'string', short: 'm' },
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  'output-format': { type: 'string', short: 'o' },
  yolo: { type: 'boolean', short: 'y' },
  'approval-mode': { type: 'string' },
  resume: { type: 'string', short: 'r' },
  'session-id': { type: 'string' },
  'list-sessions': { type: 'boolean' },
  'show-config': { type: 'boolean' },
  'delete-session': { type: 'string' },
  'fake-responses': { type: 'string' },
  'record-responses': { type: 'string' },
  skills: { type: 'string', multiple: true },
  'include-directories': { type: 'string', multiple: true },
  'max-turns': { type: 'string' },
  'max-cost': { type: 'string' },
  'max-tokens': { type: 'string' },
  policy: { type: 'string', multiple: true },
  'admin-policy': { type: 'string', multiple: true },
  'skip-trust': { type: 'boolean' },
  'allowed-tools': { type: 'string', multiple: true },
  'allowed-mcp-server-names': { type: 'string', multiple: true },
  acp: { type: 'boolean' },
  'experimental-acp': { type: 'boolean' },
  'acp-terminal': { type: 'boolean' },
  extensions: { type: 'string', short: 'e', multiple: true },
  'list-extensions': { type: 'boolean', short: 'l' },
  'prompt-interactive': { type: 'string', short: 'i' },
  sandbox: { type: 'boolean', short: 's' },
  'raw-output': { type: 'boolean' },
  'accept-raw-output-risk': { type: 'boolean' },
  debug: { type: 'boolean', short: 'd' },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SESSION_ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
const HELP_HINT = 'Run `gemini-agent --help` for usage.';

/**
 * The output format `argv` asks for, read leniently so that an error in any other flag can still be reported in
 * that format: the last valid `-o`/`--output-format` value, `text` when there is none (or only a bad one). A
 * value of another string flag (`-p "-o json"`) is skipped, and nothing after `--` counts.
 */
export function requestedOutputFormat(argv: readonly string[]): OutputFormat {
  const takesValue = new Set<string>();
  for (const [name, spec] of Object.entries(OPTIONS)) {
    if (spec.type !== 'string') continue;
    takesValue.add(`--${name}`);
    if ('short' in spec) takesValue.add(`-${spec.short}`);
  }
  const valid = (v: string | undefined): v is OutputFormat =>
    (OUTPUT_FORMATS as readonly string[]).includes(v ?? '');
  let format: OutputFormat = 'text';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    let value: string | undefined;
    if (arg === '-o' || arg === '--output-format') value = argv[++i];
    else if (arg.startsWith('--output-format=')) value = arg.slice('--output-format='.length);
    else if (/^-o[^-]/.test(arg)) value = arg.slice(2).replace(/^=/, '');
    else if (takesValue.has(arg)) i++;
    if (valid(value)) format = value;
  }
  return format;
}

/**
 * Parses `argv` (without the node and script entries) strictly. Any unknown flag, missing value, bad value or
 * conflicting pair throws a {@link CliFlagError} (exit code 1, as gemini) whose one-line message names the flag and
 * says what to do.
 */
export function parseCliArgs(argv: readonly string[]): CliOptions {
  try {
    return parseStrict(argv);
  } catch (error) {
    if (error instanceof CliUsageError && !(error instanceof CliFlagError)) {
      throw new CliFlagError(error.message);
    }
    throw error;
  }
}

function parseStrict(argv: readonly string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: withDefaultResumeValue(argv),
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new CliFlagError(`${parseErrorMessage(error)} ${HELP_HINT}`);
  }
  const { values, positionals } = parsed;

  if (values.yolo === true && values['approval-mode'] !== undefined) {
    throw new CliUsageError(
      `Cannot use both --yolo (-y) and --approval-mode together. Use --approval-mode yolo instead.`,
    );
  }
  if (values.resume !== undefined && values['session-id'] !== undefined) {
    throw new CliUsageError(
      'Cannot use both --resume (-r) and --session-id: --session-id starts a new session, -r continues one.',
    );
  }
  if (values.prompt !== undefined && positionals.length > 0) {
    throw new CliUsageError(
      `Cannot use both a positional prompt and --prompt (-p). Put the whole prompt after -p. ${HELP_HINT}`,
    );
  }
  if (values['prompt-interactive'] !== undefined && values.prompt !== undefined) {
    throw new CliUsageError(
      'Cannot use both --prompt (-p) and --prompt-interactive (-i) together.',
    );
  }
  if (values['prompt-interactive'] !== undefined && positionals.length > 0) {
    throw new CliUsageError(
      'Cannot use both a positional prompt and --prompt-interactive (-i). Put the whole prompt after -i.',
    );
  }
  const acp = values.acp === true || values['experimental-acp'] === true;
  if (acp) {
    const conflicting = [
      values.prompt !== undefined || positionals.length > 0 ? 'a prompt' : undefined,
      values.resume !== undefined ? '--resume' : undefined,
      values['session-id'] !== undefined ? '--session-id' : undefined,
      values['list-sessions'] === true ? '--list-sessions' : undefined,
      values['show-config'] === true ? '--show-config' : undefined,
      values['delete-session'] !== undefined ? '--delete-session' : undefined,
      values['output-format'] !== undefined ? '--output-format' : undefined,
      values['prompt-interactive'] !== undefined ? '--prompt-interactive' : undefined,
    ].filter((flag): flag is string => flag !== undefined);
    if (conflicting.length > 0) {
      throw new CliUsageError(
        `--acp serves an editor over stdin/stdout and cannot be combined with ${conflicting.join(', ')}: the editor ` +
          'sends the prompts and picks the sessions.',
      );
    }
  } else if (values['acp-terminal'] === true) {
    throw new CliUsageError('--acp-terminal only applies with --acp.');
  }
  if (values['api-key-env'] !== undefined && values['base-url'] === undefined) {
    throw new CliUsageError(
      '--api-key-env only applies with --base-url (for -m openai:<model>, set OPENAI_API_KEY instead).',
    );
  }
  const sessionId = values['session-id'];
  if (sessionId !== undefined && !SESSION_ID_PATTERN.test(sessionId)) {
    throw new CliUsageError(
      `Invalid --session-id "${sessionId}": use letters, digits, "-" and "_" only.`,
    );
  }

  return {
    prompt: values.prompt,
    positionalPrompt: positionals.length > 0 ? positionals.join(' ') : undefined,
    model: nonEmpty(values.model, '--model'),
    baseUrl: httpUrl(values['base-url'], '--base-url'),
    apiKeyEnv: envName(values['api-key-env'], '--api-key-env'),
    outputFormat: oneOf<OutputFormat>(
      values['output-format'] ?? 'text',
      OUTPUT_FORMATS,
      '--output-format',
    ),
    approvalMode:
      values.yolo === true
        ? 'yolo'
        : values['approval-mode'] === undefined
          ? undefined
          : oneOf<ApprovalMode>(values['approval-mode'], APPROVAL_MODES, '--approval-mode'),
    resume: values.resume,
    sessionId,
    listSessions: values['list-sessions'] === true,
    showConfig: values['show-config'] === true,
    deleteSession: nonEmpty(values['delete-session'], '--delete-session'),
    fakeResponses: nonEmpty(values['fake-responses'], '--fake-responses'),
    recordResponses: nonEmpty(values['record-responses'], '--record-responses'),
    skills: (values.skills ?? []).map((dir) => nonEmpty(dir, '--skills') ?? dir),
    includeDirectories: splitList(values['include-directories'] ?? []),
    maxTurns: positiveInteger(values['max-turns'], '--max-turns'),
    maxCostUsd: positiveAmount(values['max-cost'], '--max-cost'),
    maxTokens: positiveInteger(values['max-tokens'], '--max-tokens'),
    policy: optionalList(values.policy),
    adminPolicy: optionalList(values['admin-policy']),
    skipTrust: values['skip-trust'] === true,
    allowedTools: optionalList(values['allowed-tools']),
    allowedMcpServerNames: optionalList(values['allowed-mcp-server-names']),
    acp,
    acpDeprecatedFlag: values['experimental-acp'] === true && values.acp !== true,
    acpTerminal: values['acp-terminal'] === true,
    extensions: optionalList(values.extensions),
    listExtensions: values['list-extensions'] === true,
    promptInteractive: values['prompt-interactive'],
    sandbox: values.sandbox === true,
    rawOutput: values['raw-output'] === true || values['accept-raw-output-risk'] === true,
    acceptRawOutputRisk: values['accept-raw-output-risk'] === true,
    debug: values.debug === true,
    version: values.version === true,
    help: values.help === true,
  };
}

/**
 * `-r` / `--resume` take an optional value in gemini-cli (`-r` alone means `latest`), and so does `-i` here (alone:
 * no first prompt). `parseArgs` has no optional values, so a bare `-r` (last, or followed by another flag) gets
 * `latest` inserted, a bare `-i` an empty prompt.
 */
function withDefaultResumeValue(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    out.push(arg);
    if (arg === '--') {
      out.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '--resume=') {
      out[out.length - 1] = '--resume=latest';
      continue;
    }
    if (arg === '-r' || arg === '--resume') {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next.length > 1)) out.push('latest');
    }
    // A bare -i starts the interactive mode without a first prompt.
    if (arg === '-i' || arg === '--prompt-interactive') {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('-') && next.length > 1)) out.push('');
    }
  }
  return out;
}

/** node:util's message, without its advice on positionals starting with `-` (we take none that way). */
function parseErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const cut = message.indexOf('. To specify');
    return cut === -1 ? message : `${message.slice(0, cut)}.`;
  }
  return message;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CliUsageError(`Invalid ${flag} "${value}": use one of ${allowed.join(', ')}.`);
}

function nonEmpty(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new CliUsageError(`${flag} needs a non-empty value.`);
  return value;
}

function httpUrl(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CliUsageError(
      `Invalid ${flag} "${value}": use the server's http(s) URL, e.g. http://localhost:11434/v1.`,
    );
  }
  return value.trim();
}

function envName(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  // Upper case only, so a key passed by mistake is refused, and never echoed.
  if (!/^[A-Z_][A-Z0-9_]*$/.test(value)) {
    throw new CliUsageError(
      `Invalid ${flag}: give the name of the environment variable that holds the key (upper case, e.g. ` +
        'VLLM_API_KEY), not the key itself.',
    );
  }
  return value;
}

function positiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
    throw new CliUsageError(`Invalid ${flag} "${value}": use a whole number of at least 1.`);
  }
  return Number(value);
}

/** A positive amount of US dollars: `2`, `0.5`, `$1.25`. */
function positiveAmount(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().replace(/^\$/, '');
  const amount = /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  if (!(amount > 0) || !Number.isFinite(amount)) {
    throw new CliUsageError(
      `Invalid ${flag} "${value}": use a positive amount of US dollars, e.g. ${flag} 0.50.`,
    );
  }
  return amount;
}

/** A repeatable, comma-separated flag: undefined when not given (so the settings apply), else its entries. */
function optionalList(values: readonly string[] | undefined): string[] | undefined {
  return values === undefined ? undefined : splitList(values);
}

/** Flattens repeated and comma-separated values, dropping empty entries. */
function splitList(values: readonly string[]): string[] {
  return values
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
}
