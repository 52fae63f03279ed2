/**
 * Extension settings on the command line, as gemini 0.61 asks for them (checked with the installed binary through
 * `script`: `? Token` / `A token › ` with `*` per typed character, `Configuring settings for "kc-ext"...`,
 * `Note: Setting "Token" is already configured in the workspace scope.`, `Setting "Token" (KC_TOKEN) is already
 * set. Overwrite?` (y/N), `Setting "KC_REGION" updated.`, `Extension "nosuch" is not installed.`, `Setting nosuch
 * not found.`): install and link ask on a terminal (raw mode, hidden sensitive input), not with --skip-settings,
 * CI=true or piped input (gemini 0.61 then waits forever at its prompt); `extensions config`. The CLI runs in
 * this process with a scripted stdin.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { readKeychainFile } from '../../src/extensions/file-keychain.js';

let base: string;
let home: string;
let cwd: string;
let src: string;

/** A terminal: each time the CLI turns raw mode on, the next scripted keys arrive (a list: chunk by chunk). */
class FakeStdin extends EventEmitter {
  raw: boolean[] = [];
  constructor(
    readonly isTTY: boolean,
    private readonly keys: Array<string | string[]>,
  ) {
    super();
    if (!isTTY) {
      // Piped input: everything, then the end.
      this.once('newListener', () =>
        setImmediate(() => {
          this.emit('data', keys.flat().join(''));
          this.emit('end');
        }),
      );
    }
  }
  setEncoding(): void {}
  setRawMode(mode: boolean): void {
    this.raw.push(mode);
    const next = mode ? this.keys.shift() : undefined;
    const chunks = typeof next === 'string' ? [next] : (next ?? []);
    const emit = () => {
      const chunk = chunks.shift();
      if (chunk === undefined) return;
      this.emit('data', chunk);
      setImmediate(emit);
    };
    setImmediate(emit);
  }
  pause(): void {}
  destroy(): void {}
}

async function cli(
  argv: string[],
  options: { tty?: boolean; keys?: Array<string | string[]>; env?: Record<string, string> } = {},
) {
  let stdout = '';
  let stderr = '';
  const stdin = new FakeStdin(options.tty ?? false, options.keys ?? []);
  const code = await runCli({
    argv,
    env: { GEMINI_CLI_HOME: home, ...options.env },
    cwd,
    stdin: stdin as never,
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    onInterrupt: () => () => undefined,
  });
  return { code, stdout, stderr, stdin };
}

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const keychain = () => readKeychainFile(join(home, '.gemini', 'gemini-credentials.json'));
const envFile = () => readFileSync(join(home, '.gemini', 'extensions', 'kc-ext', '.env'), 'utf8');

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ext-config-')));
  home = join(base, 'home');
  cwd = join(base, 'proj');
  src = join(base, 'src');
  mkdirSync(cwd, { recursive: true });
  write(join(home, '.gemini', 'trustedFolders.json'), { [cwd]: 'TRUST_FOLDER' });
  write(join(src, 'gemini-extension.json'), {
    name: 'kc-ext',
    version: '1.0.0',
    settings: [
      { name: 'Token', description: 'A token', envVar: 'KC_TOKEN', sensitive: true },
      { name: 'Region', description: 'The region', envVar: 'KC_REGION' },
    ],
  });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const MISSING =
  'Extension "kc-ext" has missing settings: Token, Region. Please run "gemini-agent extensions config kc-ext ' +
  '[setting-name]" to configure them.\n';

describe('install and link ask for the settings on a terminal', () => {
  it('asks each setting, hides a sensitive value, and stores it in the keychain file', async () => {
    const run = await cli(['extensions', 'link', src, '--consent'], {
      tty: true,
      keys: [['sec\u007fret', '\r'], 'eu west\r'],
    });
    expect(run.code).toBe(0);
    // Backspace erased the c; Enter came in a chunk of its own.
    expect(run.stderr).toContain(
      '? Token\nA token › ***\b \b***\n? Region\nThe region › eu west\n',
    );
    expect(run.stderr).not.toContain('missing settings');
    expect(run.stdin.raw).toEqual([true, false, true, false]);
    expect(keychain()).toEqual({
      [`Gemini CLI Extensions kc-ext ${sha256(src)}`]: { __secret__KC_TOKEN: 'seret' },
    });
    expect(envFile()).toBe('KC_REGION="eu west"\n');
    const list = await cli(['extensions', 'list']);
    expect(list.stdout).toContain(
      `  Token: *** (User - Keychain)\n  Region: eu west (User - ${join(home, '.gemini', 'extensions', 'kc-ext', '.env')})`,
    );
  });

  it('Ctrl-C skips a setting, which is then reported missing', async () => {
    const run = await cli(['extensions', 'install', src, '--consent'], {
      tty: true,
      keys: ['\u0003', 'us\r'],
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'Extension "kc-ext" has missing settings: Token. Please run "gemini-agent extensions config kc-ext',
    );
    expect(envFile()).toBe('KC_REGION=us\n');
  });

  it.each([
    ['--skip-settings', { tty: true, keys: ['x\r', 'y\r'] }, ['--skip-settings']],
    ['CI=true', { tty: true, keys: ['x\r', 'y\r'], env: { CI: 'true' } }, []],
    ['piped input', { tty: false, keys: ['x\n', 'y\n'] }, []],
  ])('with %s nothing is asked: the missing settings are reported', async (_, options, flags) => {
    const run = await cli(['extensions', 'install', src, '--consent', ...flags], options);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('? Token');
    expect(run.stderr.endsWith(MISSING)).toBe(true);
    expect(keychain()).toEqual({});
  });
});

describe('empty values', () => {
  it('count as set for the missing-settings check and show as [not set], as in gemini 0.61', async () => {
    // Recorded with gemini 0.61: workspace .env "KC_REGION=" → install --skip-settings reports only Token;
    // list: "  Token: [not set] " (no scope: a trailing space) and "  Region: [not set] (Workspace - <cwd>/.env)".
    write(join(cwd, '.env'), 'KC_REGION=\n');
    const run = await cli(['extensions', 'install', src, '--consent', '--skip-settings']);
    expect(run.stderr).toContain(
      'Extension "kc-ext" has missing settings: Token. Please run "gemini-agent extensions config kc-ext',
    );
    const list = await cli(['extensions', 'list']);
    expect(list.stdout).toContain(
      `\n name: ${sha256('kc-ext')}\n Path: ${join(home, '.gemini', 'extensions', 'kc-ext')}\n`,
    );
    expect(list.stdout).toContain(
      `  Token: [not set] \n  Region: [not set] (Workspace - ${join(cwd, '.env')})`,
    );
    const json = JSON.parse((await cli(['extensions', 'list', '-o', 'json'])).stdout) as Array<{
      settings: Array<{ value?: string }>;
    }>;
    expect(json[0]?.settings.map((s) => s.value)).toEqual([undefined, '']);
  });
});

describe('extensions config', () => {
  const service = () => `Gemini CLI Extensions kc-ext ${sha256(src)}`;
  const link = () => cli(['extensions', 'link', src, '--consent']);

  it('asks every setting; one already set only after a yes to Overwrite?', async () => {
    await link();
    const first = await cli(['extensions', 'config', 'kc-ext'], { keys: ['t1\n', 'west\n'] });

    expect(first.code).toBe(0);
    expect(first.stdout).toBe('Configuring settings for "kc-ext"...\n');
    expect(first.stderr).toBe('? Token\nA token › \n? Region\nThe region › \n');
    expect(keychain()[service()]).toEqual({ __secret__KC_TOKEN: 't1' });
    expect(envFile()).toBe('KC_REGION=west\n');

    write(join(cwd, '.env'), 'KC_REGION=ws\n');
    const second = await cli(['extensions', 'config', 'kc-ext'], { keys: ['yes\n', 't2\n', '\n'] });
    expect(second.stdout).toBe(
      'Configuring settings for "kc-ext"...\n' +
        'Note: Setting "Region" is already configured in the workspace scope.\n',
    );
    expect(second.stderr).toBe(
      '? Setting "Token" (KC_TOKEN) is already set. Overwrite? (y/N) \n? Token\nA token › \n' +
        '? Setting "Region" (KC_REGION) is already set. Overwrite? (y/N) \n',
    );
    expect(keychain()[service()]).toEqual({ __secret__KC_TOKEN: 't2' });
    expect(envFile()).toBe('KC_REGION=west\n');
  });

  it('one setting by name or env var, in the user or the workspace scope; an empty answer removes it', async () => {
    await link();
    const one = await cli(['extensions', 'config', 'kc-ext', 'Token'], { keys: ['abc\n'] });
    expect(one.stdout).toBe('Setting "Token" updated.\n');
    write(join(cwd, '.env'), '# project\nOTHER=1\n');
    await cli(['extensions', 'config', 'kc-ext', 'KC_REGION', '--scope', 'workspace'], {
      keys: ['a b\n'],
    });
    // gemini rewrites the workspace .env with its variables only (the comment goes).
    expect(readFileSync(join(cwd, '.env'), 'utf8')).toBe('OTHER=1\nKC_REGION="a b"\n');
    await cli(['extensions', 'config', 'kc-ext', 'KC_TOKEN', '--scope', 'workspace'], {
      keys: ['wst\n'],
    });
    expect(keychain()).toEqual({
      [service()]: { __secret__KC_TOKEN: 'abc' },
      [`${service()} ${cwd}`]: { __secret__KC_TOKEN: 'wst' },
    });
    const list = await cli(['extensions', 'list']);
    expect(list.stdout).toContain(
      `  Token: *** (Workspace - Keychain)\n  Region: a b (Workspace - ${join(cwd, '.env')})`,
    );

    await cli(['extensions', 'config', 'kc-ext', 'KC_TOKEN'], { keys: ['\n'] });
    expect(keychain()[service()]).toBeUndefined();
    // The end of input cancels: nothing changes and nothing is said.
    const cancelled = await cli([
      'extensions',
      'config',
      'kc-ext',
      'KC_TOKEN',
      '--scope',
      'workspace',
    ]);
    expect(cancelled.stdout).toBe('');
    expect(keychain()[`${service()} ${cwd}`]).toEqual({ __secret__KC_TOKEN: 'wst' });
  });

  it("reports gemini's errors with exit code 1", async () => {
    await link();
    const cases: Array<[string[], string]> = [
      [['nosuch'], 'Extension "nosuch" is not installed.\n'],
      [['kc-ext', 'nosuch'], 'Setting nosuch not found.\n'],
      [['../x'], 'Invalid extension name. Names cannot contain path separators or "..".\n'],
    ];
    for (const [args, message] of cases) {
      const run = await cli(['extensions', 'config', ...args]);
      expect([run.code, run.stderr.endsWith(message)]).toEqual([1, true]);
    }
    const scope = await cli(['extensions', 'config', 'kc-ext', '--scope', 'team']).catch(
      (e: Error) => e,
    );
    expect(scope).toMatchObject({ code: 42 });
    write(join(cwd, '.gemini', 'settings.json'), { experimental: { extensionConfig: false } });
    const off = await cli(['extensions', 'config', 'kc-ext']);
    expect(off.code).toBe(1);
    expect(off.stderr).toBe(
      'Extension configuration is currently disabled. Enable it by setting "experimental.extensionConfig" to true.\n',
    );
  });

  it('without a name configures every extension that has settings', async () => {
    const none = await cli(['extensions', 'config']);
    expect(none.stdout).toBe('No extensions installed.\n');
    await link();
    write(join(base, 'plain', 'gemini-extension.json'), { name: 'plain', version: '1.0.0' });
    await cli(['extensions', 'link', join(base, 'plain'), '--consent']);
    const all = await cli(['extensions', 'config'], { keys: ['t\n', 'r\n'] });
    expect(all.stdout).toBe('\nConfiguring settings for "kc-ext"...\n');
    expect(envFile()).toBe('KC_REGION=r\n');
  });
});
