import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import { AuthType, createContentGenerator, loginWithGoogle, logoutFromGoogle } from './sdk.js';

/** The `login` / `logout` subcommands' help. */
export const LOGIN_HELP = `Usage: gemini-agent login [--no-browser | --browser] [--skip-setup]
       gemini-agent logout

Signs in with Google ("Login with Google", as gemini-cli's /auth) and caches the credentials in
$GEMINI_CLI_HOME/.gemini/oauth_creds.json, shared with gemini-cli. Then checks the Code Assist setup
(tier and project) unless --skip-setup is given.

  --no-browser   Print a URL to open on any device and paste the code shown there (also: NO_BROWSER=1,
                 and automatically over SSH without a display or in CI).
  --browser      Use the browser flow even where a browser seems unavailable (the URL is printed too).
  --skip-setup   Do not contact the Code Assist API after signing in.

The browser is opened with $BROWSER when set, else xdg-open / open / start. The redirect comes back to a
server on 127.0.0.1 (OAUTH_CALLBACK_PORT and OAUTH_CALLBACK_HOST choose its port and bind address).
'logout' revokes and deletes the cached credentials.
`;

/** `gemini-agent login …` and `gemini-agent logout`: returns the exit code. */
export async function loginCommand(io: CliIo, args: readonly string[]): Promise<ExitCode> {
  const sub = args[0];
  let values;
  try {
    ({ values } = parseArgs({
      args: args.slice(1),
      options: {
        'no-browser': { type: 'boolean' },
        browser: { type: 'boolean' },
        'skip-setup': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliUsageError(
      `${(error as Error).message}\nRun \`gemini-agent ${sub} --help\` for usage.`,
    );
  }
  if (values.help) {
    io.stdout(LOGIN_HELP);
    return ExitCode.Success;
  }
  if (sub === 'logout') {
    const had = await logoutFromGoogle();
    io.stdout(
      had
        ? 'Signed out: the cached Google credentials were deleted.\n'
        : 'No cached Google credentials.\n',
    );
    return ExitCode.Success;
  }
  if (values['no-browser'] && values.browser) {
    throw new CliUsageError('Cannot use both --browser and --no-browser.');
  }
  const env = process.env;
  const mode =
    values['no-browser'] || (!values.browser && (env['NO_BROWSER'] || !browserLikely(env)))
      ? 'user-code'
      : 'browser';
  const controller = new AbortController();
  const unsubscribe = io.onInterrupt(() => controller.abort());
  try {
    const result = await loginWithGoogle({
      mode,
      signal: controller.signal,
      show: (message) => io.stdout(message),
      openBrowser: (url) => openBrowser(url, env),
      readCode: (prompt) => {
        io.stdout(prompt);
        return readLine(io);
      },
    });
    io.stdout(`Authentication succeeded${result.email ? `: signed in as ${result.email}` : ''}.\n`);
    io.stdout(`Credentials saved to ${result.credentialsFile}.\n`);
  } finally {
    unsubscribe();
  }
  if (!values['skip-setup']) {
    const generator = await createContentGenerator({
      authType: AuthType.LOGIN_WITH_GOOGLE,
      retry: false,
    });
    const tier = generator.userTierName
      ? `${generator.userTierName} (${generator.userTier})`
      : (generator.userTier ?? 'ready');
    io.stdout(`Gemini Code Assist: ${tier}.\n`);
  }
  io.stdout(
    'Use it with authType: "oauth-personal", GOOGLE_GENAI_USE_GCA=true, or gemini-cli\'s settings.\n',
  );
  return ExitCode.Success;
}

/** gemini-cli's `shouldAttemptBrowserLaunch()`. */
function browserLikely(env: NodeJS.ProcessEnv): boolean {
  if (env['BROWSER'] === 'www-browser') return false;
  if (env['CI'] || env['DEBIAN_FRONTEND'] === 'noninteractive') return false;
  const ssh = !!env['SSH_CONNECTION'];
  if (process.platform === 'linux') {
    return ['DISPLAY', 'WAYLAND_DISPLAY', 'MIR_SOCKET'].some((v) => !!env[v]) || !!env['BROWSER'];
  }
  return !ssh;
}

/** Starts `$BROWSER <url>` (else the platform's opener) without waiting for it. */
function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const [command, args] = env['BROWSER']
    ? [env['BROWSER'], [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', (error) => reject(error));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

/** Reads one line from stdin (the pasted authorization code). */
function readLine(io: CliIo): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (value: string): void => {
      io.stdin.removeAllListeners();
      io.stdin.pause();
      resolve(value);
    };
    io.stdin.setEncoding('utf8');
    io.stdin.on('data', (chunk: string) => {
      text += chunk;
      const end = text.search(/\r?\n/);
      if (end >= 0) done(text.slice(0, end));
    });
    io.stdin.on('end', () => done(text));
    io.stdin.on('error', (error: Error) => reject(error));
  });
}
