import { CliUsageError } from './cli-errors.js';

/** Which settings file `gemini-agent mcp add|remove` edits (gemini's `--scope`). */
export type McpScope = 'user' | 'project';

/** `gemini-agent mcp add` as parsed. */
export interface McpAddArgs {
  name: string;
  commandOrUrl: string;
  /** The stdio server's arguments (everything after `<commandOrUrl>` that is not one of ours, and after `--`). */
  args: string[];
  scope: McpScope;
  transport: 'stdio' | 'sse' | 'http';
  env: Record<string, string> | undefined;
  headers: Record<string, string> | undefined;
  timeout: number | undefined;
  trust: boolean | undefined;
  description: string | undefined;
  includeTools: string[] | undefined;
  excludeTools: string[] | undefined;
}

type Flag =
  | 'scope'
  | 'transport'
  | 'env'
  | 'header'
  | 'timeout'
  | 'trust'
  | 'description'
  | 'include-tools'
  | 'exclude-tools'
  | 'help';

const ADD_FLAGS: Readonly<Record<string, Flag>> = {
  '-s': 'scope',
  '--scope': 'scope',
  '-t': 'transport',
  '--transport': 'transport',
  '--type': 'transport',
  '-e': 'env',
  '--env': 'env',
  '-H': 'header',
  '--header': 'header',
  '--timeout': 'timeout',
  '--trust': 'trust',
  '--description': 'description',
  '--include-tools': 'include-tools',
  '--exclude-tools': 'exclude-tools',
  '-h': 'help',
  '--help': 'help',
};

const BOOLEAN_FLAGS: ReadonlySet<Flag> = new Set(['trust', 'help']);

/** Splits `--flag=value` into its flag and value. */
function splitInline(token: string): [string, string | undefined] {
  const eq = token.indexOf('=');
  return token.startsWith('--') && eq > 2
    ? [token.slice(0, eq), token.slice(eq + 1)]
    : [token, undefined];
}

/**
 * Reads `argv` as gemini's yargs does for `mcp add`: our flags anywhere before `--` (with `--flag value` or
 * `--flag=value`), every other token a positional (so a server's own flags such as `-y` pass through), and
 * everything after `--` a server argument.
 */
function scan(
  argv: readonly string[],
  flags: Readonly<Record<string, Flag>>,
): { values: Map<Flag, string[]>; positionals: string[] } {
  const values = new Map<Flag, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] as string;
    if (token === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const [name, inline] = splitInline(token);
    const flag = flags[name];
    if (flag === undefined) {
      positionals.push(token);
      continue;
    }
    let value: string;
    if (BOOLEAN_FLAGS.has(flag)) {
      value = inline ?? 'true';
      if (value !== 'true' && value !== 'false') {
        throw new CliUsageError(
          `${name} takes no value other than true or false (got "${value}").`,
        );
      }
    } else if (inline !== undefined) {
      value = inline;
    } else {
      const next = argv[i + 1];
      if (next === undefined) throw new CliUsageError(`${name} needs a value.`);
      value = next;
      i += 1;
    }
    values.set(flag, [...(values.get(flag) ?? []), value]);
  }
  return { values, positionals };
}

function single(values: Map<Flag, string[]>, flag: Flag): string | undefined {
  const list = values.get(flag);
  return list === undefined ? undefined : list[list.length - 1];
}

/** `--scope user|project` (default project). */
function scopeOf(values: Map<Flag, string[]>): McpScope {
  const scope = single(values, 'scope') ?? 'project';
  if (scope !== 'user' && scope !== 'project') {
    throw new CliUsageError(`--scope must be user or project (got "${scope}").`);
  }
  return scope;
}

/** `-e KEY=value` pairs (the value may hold `=`). */
function envOf(list: readonly string[] | undefined): Record<string, string> | undefined {
  if (list === undefined) return undefined;
  const env: Record<string, string> = {};
  for (const entry of list) {
    const eq = entry.indexOf('=');
    const key = eq > 0 ? entry.slice(0, eq).trim() : '';
    if (key === '') {
      throw new CliUsageError(`-e expects KEY=value (got "${entry}"), e.g. -e API_KEY=$API_KEY.`);
    }
    env[key] = entry.slice(eq + 1);
  }
  return env;
}

/** `-H "Name: value"` pairs (the value may hold `:`). */
function headersOf(list: readonly string[] | undefined): Record<string, string> | undefined {
  if (list === undefined) return undefined;
  const headers: Record<string, string> = {};
  for (const entry of list) {
    const colon = entry.indexOf(':');
    const key = colon > 0 ? entry.slice(0, colon).trim() : '';
    const value = colon > 0 ? entry.slice(colon + 1).trim() : '';
    if (key === '' || value === '') {
      throw new CliUsageError(
        `-H expects "Name: value" (got "${entry}"), e.g. -H "Authorization: Bearer $TOKEN".`,
      );
    }
    headers[key] = value;
  }
  return headers;
}

/** `--include-tools a,b --include-tools c` → `['a', 'b', 'c']`. */
function toolList(list: readonly string[] | undefined): string[] | undefined {
  if (list === undefined) return undefined;
  return list
    .flatMap((entry) => entry.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** Parses `gemini-agent mcp add …` (after `add`); `undefined` when `--help` was asked. */
export function parseMcpAdd(argv: readonly string[]): McpAddArgs | undefined {
  const { values, positionals } = scan(argv, ADD_FLAGS);
  if (single(values, 'help') === 'true') return undefined;
  const [name, commandOrUrl, ...args] = positionals;
  if (name === undefined || name.trim() === '' || commandOrUrl === undefined) {
    throw new CliUsageError(
      'Usage: gemini-agent mcp add [options] <name> <commandOrUrl> [args...] (see gemini-agent mcp --help).',
    );
  }
  const transport = single(values, 'transport') ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'sse' && transport !== 'http') {
    throw new CliUsageError(`--transport must be stdio, sse or http (got "${transport}").`);
  }
  if (transport !== 'stdio' && args.length > 0) {
    throw new CliUsageError(
      `Unexpected argument "${args[0]}": an ${transport} server takes a URL and no arguments.`,
    );
  }
  const timeoutText = single(values, 'timeout');
  const timeout = timeoutText === undefined ? undefined : Number(timeoutText);
  if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
    throw new CliUsageError(
      `--timeout must be a number of milliseconds > 0 (got "${timeoutText}").`,
    );
  }
  const trust = single(values, 'trust');
  return {
    name: name.trim(),
    commandOrUrl,
    args,
    scope: scopeOf(values),
    transport,
    env: envOf(values.get('env')),
    headers: headersOf(values.get('header')),
    timeout,
    trust: trust === undefined ? undefined : trust === 'true',
    description: single(values, 'description'),
    includeTools: toolList(values.get('include-tools')),
    excludeTools: toolList(values.get('exclude-tools')),
  };
}

const REMOVE_FLAGS: Readonly<Record<string, Flag>> = {
  '-s': 'scope',
  '--scope': 'scope',
  '-h': 'help',
  '--help': 'help',
};

/** Parses `gemini-agent mcp remove [--scope user|project] <name>`; `undefined` when `--help` was asked. */
export function parseMcpRemove(
  argv: readonly string[],
): { name: string; scope: McpScope } | undefined {
  const { values, positionals } = scan(argv, REMOVE_FLAGS);
  if (single(values, 'help') === 'true') return undefined;
  const unknown = positionals.find((p) => p.startsWith('-'));
  if (unknown !== undefined) throw new CliUsageError(`Unknown option ${unknown} for mcp remove.`);
  const [name, ...extra] = positionals;
  if (name === undefined || name.trim() === '') {
    throw new CliUsageError('Usage: gemini-agent mcp remove [--scope user|project] <name>.');
  }
  if (extra.length > 0) throw new CliUsageError(`Unexpected argument "${extra[0]}" after ${name}.`);
  return { name: name.trim(), scope: scopeOf(values) };
}
