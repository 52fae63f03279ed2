import { CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import { parseMcpAdd, parseMcpRemove, type McpAddArgs, type McpScope } from './mcp-args.js';
import { readSettingsDocument, writeSettingsKey } from './settings-edit.js';
import {
  ConfigurationError,
  GeminiCliAgent,
  loadSettings,
  type LoadedSettings,
  type McpServerConfig,
  type McpServerStatus,
} from './sdk.js';

/** The `gemini-agent mcp --help` text. */
export const MCP_HELP_TEXT = `Usage: gemini-agent mcp <command>

Manage the MCP servers of settings.json (the same files and shapes as gemini mcp).

Commands:
  list                                        List the configured servers and try to connect to each.
  add [options] <name> <commandOrUrl> [args...]
                                              Add a server (or replace the one of that name).
  remove [--scope user|project] <name>        Remove a server.

Options of add:
  -s, --scope <user|project>   Which settings.json: ~/.gemini (user) or ./.gemini (project, the default).
  -t, --transport <type>       stdio (default: <commandOrUrl> is the command), sse or http (it is the URL).
  -e, --env KEY=value          An environment variable of a stdio server (repeatable; $VAR expands at start).
  -H, --header "Name: value"   An HTTP header of an sse/http server (repeatable; $VAR expands at start).
      --timeout <ms>           Connect, list and call time limit (default 10 minutes).
      --trust                  Run the server's tools without asking (in trusted folders only).
      --description <text>     Shown by list.
      --include-tools <a,b>    Offer only these tools (repeatable or comma-separated).
      --exclude-tools <a,b>    Never offer these tools.
  Other options after <commandOrUrl>, and everything after --, are the server's own arguments.
`;

/** `gemini mcp list`'s time limit for servers without a `timeout` of their own. */
const LIST_TIMEOUT_MS = 5000;

/** The settings file of a scope, or a usage error for a project scope in the home folder (as gemini). */
function settingsFile(settings: LoadedSettings, scope: McpScope): string {
  if (scope === 'user') return fileOf(settings, 'user');
  if (settings.files.find((f) => f.scope === 'workspace')?.skipped === 'home-workspace') {
    throw new CliUsageError('Please use --scope user to edit settings in the home directory.');
  }
  return fileOf(settings, 'workspace');
}

function fileOf(settings: LoadedSettings, scope: 'user' | 'workspace'): string {
  const file = settings.files.find((f) => f.scope === scope);
  if (file === undefined) throw new Error(`no ${scope} settings file`);
  return file.path;
}

function settingsOf(io: CliIo): LoadedSettings {
  return loadSettings({ cwd: io.cwd, env: io.env ?? {}, sources: [] });
}

/** The `mcpServers` object of a settings file (a non-object is an error: the file is left alone). */
function serversIn(value: Record<string, unknown>, file: string): Record<string, unknown> {
  const servers = value['mcpServers'];
  if (servers === undefined) return {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new CliUsageError(`"mcpServers" in ${file} is not an object; fix it first.`);
  }
  return { ...(servers as Record<string, unknown>) };
}

/** The entry `mcp add` writes, in gemini's key order (keys it leaves unset are absent). */
function serverEntry(args: McpAddArgs): McpServerConfig {
  const common = {
    timeout: args.timeout,
    trust: args.trust,
    description: args.description,
    includeTools: args.includeTools,
    excludeTools: args.excludeTools,
  };
  const entry =
    args.transport === 'stdio'
      ? { command: args.commandOrUrl, args: args.args, env: args.env, ...common }
      : { url: args.commandOrUrl, type: args.transport, headers: args.headers, ...common };
  return JSON.parse(JSON.stringify(entry)) as McpServerConfig;
}

function add(io: CliIo, args: McpAddArgs): void {
  const entry = serverEntry(args);
  // The agent's own check: a bad entry is refused before anything is written.
  try {
    new GeminiCliAgent({ cwd: io.cwd, settings: false, mcpServers: { [args.name]: entry } });
  } catch (error) {
    if (error instanceof ConfigurationError) throw new CliUsageError(error.message);
    throw error;
  }
  const file = settingsFile(settingsOf(io), args.scope);
  const doc = readSettingsDocument(file);
  const servers = serversIn(doc.value, file);
  const existed = Object.hasOwn(servers, args.name);
  if (existed)
    io.stdout(`MCP server "${args.name}" is already configured within ${args.scope} settings.\n`);
  Object.defineProperty(servers, args.name, {
    value: entry,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  writeSettingsKey(doc, 'mcpServers', servers);
  io.stdout(
    existed
      ? `MCP server "${args.name}" updated in ${args.scope} settings.\n`
      : `MCP server "${args.name}" added to ${args.scope} settings. (${args.transport})\n`,
  );
}

function remove(io: CliIo, name: string, scope: McpScope): void {
  const file = settingsFile(settingsOf(io), scope);
  const doc = readSettingsDocument(file);
  const servers = serversIn(doc.value, file);
  if (!Object.hasOwn(servers, name)) {
    io.stdout(`Server "${name}" not found in ${scope} settings.\n`);
    return;
  }
  delete servers[name];
  writeSettingsKey(doc, 'mcpServers', servers);
  io.stdout(`Server "${name}" removed from ${scope} settings.\n`);
}

function statusLine(server: McpServerStatus): string {
  const [mark, text] =
    server.state === 'connected'
      ? ['✓', 'Connected']
      : server.state === 'connecting'
        ? ['…', 'Connecting']
        : server.state === 'failed'
          ? ['✗', 'Disconnected']
          : server.blocked
            ? ['⛔', 'Blocked']
            : ['○', 'Disabled'];
  const line = `${mark} ${server.name}: ${server.target} - ${text}`;
  return server.state === 'failed' && server.reason ? `${line}\n    ${server.reason}` : line;
}

async function list(io: CliIo): Promise<void> {
  const env = io.env ?? {};
  const settings = loadSettings({ cwd: io.cwd, env });
  // As gemini: in an untrusted folder the project's servers are listed too (all disabled).
  const all = settings.trust.trusted
    ? settings
    : loadSettings({ cwd: io.cwd, env, trustWorkspace: true });
  const configured = (all.merged.mcpServers ?? {}) as Record<string, McpServerConfig>;
  const names = Object.keys(configured);
  if (names.length === 0) {
    io.stdout('No MCP servers configured.\n');
    return;
  }
  if (!settings.trust.trusted) {
    io.stdout(
      'Warning: MCP servers are configured but disabled because this folder is untrusted.\n' +
        'User-level servers are also suppressed in untrusted folders to prevent accidental side-effects.\n\n',
    );
  }
  const servers: Record<string, McpServerConfig> = {};
  for (const name of names) {
    const config = configured[name] as McpServerConfig;
    const entry = { ...config, timeout: config.timeout ?? LIST_TIMEOUT_MS };
    Object.defineProperty(servers, name, {
      value: entry,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const agent = new GeminiCliAgent({ cwd: io.cwd, mcpServers: servers });
  try {
    const status = await agent.mcp.status();
    const byName = new Map(status.map((s) => [s.name, s]));
    io.stdout('Configured MCP servers:\n\n');
    for (const name of names) {
      const server = byName.get(name);
      if (server) io.stdout(`${statusLine(server)}\n`);
    }
  } finally {
    await agent.close();
  }
}

/** `gemini-agent mcp list|add|remove`: reads and edits `mcpServers` in settings.json as gemini does. */
export async function mcpCommand(io: CliIo, argv: readonly string[]): Promise<ExitCode> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    io.stdout(MCP_HELP_TEXT);
    return command === undefined ? ExitCode.InputError : ExitCode.Success;
  }
  if (command === 'list') {
    if (rest.length > 0 && rest[0] !== '--help' && rest[0] !== '-h') {
      throw new CliUsageError(`Unexpected argument "${rest[0]}" after mcp list.`);
    }
    if (rest.length > 0) io.stdout(MCP_HELP_TEXT);
    else await list(io);
    return ExitCode.Success;
  }
  if (command === 'add') {
    const args = parseMcpAdd(rest);
    if (args === undefined) io.stdout(MCP_HELP_TEXT);
    else add(io, args);
    return ExitCode.Success;
  }
  if (command === 'remove') {
    const args = parseMcpRemove(rest);
    if (args === undefined) io.stdout(MCP_HELP_TEXT);
    else remove(io, args.name, args.scope);
    return ExitCode.Success;
  }
  throw new CliUsageError(
    `Unknown mcp command "${command}": use gemini-agent mcp list, add or remove (see gemini-agent mcp --help).`,
  );
}
