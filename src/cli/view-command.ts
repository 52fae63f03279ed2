import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import { FileSessionStore, startSessionViewer } from './sdk.js';
import { findSession } from './session-list.js';

/** The `gemini-agent view --help` text. */
export const VIEW_HELP_TEXT = `Usage: gemini-agent view [session] [--no-open] [--port <n>]

Serves a read-only viewer of this project's sessions on 127.0.0.1 and opens it in the browser: for each session,
its turns, model calls (latency, tokens, estimated cost, thoughts), tool calls (arguments, results, errors, who
decided), subagents, and live updates while the session runs. The URL holds a random token; keep it private.

  session            A session id, latest, or an index from --list-sessions: open it first.
  --no-open          Do not open a browser: print the URL as the first line of stdout and keep serving.
  --port <n>         Listen on this port (default: a free one).
  -h, --help         Print this help.

Stops on Ctrl-C or SIGTERM.
`;

const OPTIONS = {
  'no-open': { type: 'boolean' },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Opens a URL with the desktop's browser (`$BROWSER`, else `open`, `xdg-open` or `start`); false if it cannot. */
function openBrowser(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<boolean> {
  const browser = env['BROWSER'];
  const [command, args] =
    browser !== undefined && browser !== ''
      ? [browser, [url]]
      : process.platform === 'darwin'
        ? ['open', [url]]
        : process.platform === 'win32'
          ? ['cmd', ['/c', 'start', '""', url]]
          : ['xdg-open', [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { stdio: 'ignore', detached: true });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

/** `gemini-agent view [session] [--no-open] [--port n]`. */
export async function viewCommand(io: CliIo, argv: readonly string[]): Promise<ExitCode> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliUsageError(
      `${(error as Error).message}. Run \`gemini-agent view --help\` for usage.`,
    );
  }
  if (parsed.values.help === true) {
    io.stdout(VIEW_HELP_TEXT);
    return ExitCode.Success;
  }
  if (parsed.positionals.length > 1) {
    throw new CliUsageError(
      'gemini-agent view takes at most one session. Run `gemini-agent view --help`.',
    );
  }
  let port: number | undefined;
  if (parsed.values.port !== undefined) {
    port = Number(parsed.values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new CliUsageError(
        `--port ${parsed.values.port}: expected a port number from 0 to 65535.`,
      );
    }
  }
  const store = new FileSessionStore({ projectRoot: io.cwd, env: { ...(io.env ?? {}) } });
  const ref = parsed.positionals[0];
  let sessionId: string | undefined;
  if (ref !== undefined) {
    const sessions = [...(await store.list())].sort(
      (a, b) => a.startTime.localeCompare(b.startTime) || a.sessionId.localeCompare(b.sessionId),
    );
    sessionId = findSession(sessions, ref).sessionId;
  }
  const viewer = await startSessionViewer({
    store,
    ...(port === undefined ? {} : { port }),
    ...(sessionId === undefined ? {} : { sessionId }),
  });
  io.stdout(`${viewer.url}\n`);
  if (parsed.values['no-open'] !== true && !(await openBrowser(viewer.url, io.env ?? {}))) {
    io.stderr('Could not open a browser: open the URL above.\n');
  }
  io.stderr(`Serving the sessions of ${io.cwd} (read-only). Press Ctrl-C to stop.\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      unsubscribe();
      process.off('SIGTERM', stop);
      resolve();
    };
    const unsubscribe = io.onInterrupt(stop);
    process.once('SIGTERM', stop);
  });
  await viewer.close();
  return ExitCode.Success;
}
