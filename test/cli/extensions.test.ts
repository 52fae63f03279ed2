/**
 * `gemini-agent extensions …` against gemini 0.61's recording of the same commands
 * (scripts/gemini-reference/record-extension-commands.mjs): the files written in ~/.gemini/extensions and the
 * lines printed; then consent, git sources, `-l` and `-e` in a prompt run.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GenerateContentResponse } from '@google/genai';
import { FakeGeminiServer } from '../../src/testing/index.js';
import { ensureBuilt, ROOT } from './helpers/built-cli.js';
import { cleanEnv, runCli, type TempProject } from './helpers/run-cli.js';

interface RecordedStep {
  argv: string[];
  input?: string;
  status: number;
  stderr: string;
  extensions: Record<string, string> | null;
}
const recorded = JSON.parse(
  readFileSync(
    join(ROOT, 'test', 'cli', 'fixtures', 'gemini-0.61-extension-commands.json'),
    'utf8',
  ),
) as { sources: Record<string, string | object>; steps: RecordedStep[] };

let project: TempProject;
let base: string;
beforeAll(async () => {
  await ensureBuilt();
}, 300_000);
beforeEach(() => {
  // The recording's layout: <BASE>/home (HOME), <BASE>/project (the trusted working folder), <BASE>/src.
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gemini-agent-ext-')));
  project = {
    cwd: join(base, 'project'),
    home: join(base, 'home'),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
  mkdirSync(project.cwd, { recursive: true });
  mkdirSync(join(project.home, '.gemini'), { recursive: true });
  for (const [path, content] of Object.entries(recorded.sources)) {
    const target = join(base, 'src', path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  writeFileSync(
    join(project.home, '.gemini', 'trustedFolders.json'),
    JSON.stringify({ [project.cwd]: 'TRUST_FOLDER' }),
  );
});
afterEach(async () => {
  await project.cleanup();
});

const run = (args: string[], extra: Record<string, string> = {}, input?: string) =>
  runCli(args, {
    cwd: project.cwd,
    env: cleanEnv(project, { HOME: project.home, ...extra }),
    ...(input === undefined ? {} : { input }),
  });

function tree(dir: string): Record<string, string> | null {
  if (!existsSync(dir)) return null;
  const files: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/** Our paths as the recording writes them. */
const norm = (text: string) => text.split(base).join('<BASE>');

describe('gemini-agent extensions, step by step as gemini 0.61', () => {
  it('writes the same files and prints the same lines', async () => {
    const extensionsDir = join(project.home, '.gemini', 'extensions');
    for (const step of recorded.steps) {
      const label = step.argv.join(' ');
      const r = await run(
        step.argv.map((a) => a.replace('<BASE>', base)),
        {},
        step.input,
      );
      expect(r.code, label).toBe(step.status);
      const files = tree(extensionsDir);
      expect(files && JSON.parse(norm(JSON.stringify(files))), label).toEqual(step.extensions);
      const ours = norm(`${r.stdout}\n${r.stderr}`);
      for (const line of step.stderr.split('\n')) {
        // The id hashes the source path, which holds the temp folder: checked below instead (the " name:" line,
        // the name's hash, is compared as it is). So does a local server's signature (its args hold the path):
        // the remote one's is compared below.
        if (line === '' || /^ ID: |^ {4}Config signature: /.test(line)) continue;
        expect(ours, label).toContain(
          line.replace('gemini extensions link', 'gemini-agent extensions link'),
        );
      }
      const signature = / {4}Config signature: b0851fb\S+/.exec(step.stderr)?.[0];
      if (signature !== undefined) expect(ours, label).toContain(signature);
      for (const id of r.stdout.matchAll(
        /^✓ (\S+) .*\n ID: ([0-9a-f]{64})\n name: ([0-9a-f]{64})\n Path: .*\n Source: (.*) \(Type/gm,
      )) {
        expect(id[3]).toBe(createHash('sha256').update(id[1]!).digest('hex'));
        expect(id[2]).toBe(
          createHash('sha256')
            .update(id[4] ?? '')
            .digest('hex'),
        );
      }
    }
  }, 300_000);
});

function textChunks(text: string): GenerateContentResponse[] {
  return [
    {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 },
    } as GenerateContentResponse,
  ];
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
    stdio: 'ignore',
  });
}

describe('gemini-agent extensions: consent, git, new, -l and -e', () => {
  it('asks before installing: yes installs, no input refuses and says to pass --consent', async () => {
    const refused = await run(['extensions', 'install', '../src/plain']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Installing extension "plain".');
    expect(refused.stderr).toContain('pass --consent to accept non-interactively');
    expect(refused.stderr).toContain('Installation cancelled for "plain".');
    const yes = await run(['extensions', 'install', '../src/plain'], {}, 'y\n');
    expect(yes.code).toBe(0);
    expect(yes.stdout).toBe('Extension "plain" installed successfully and enabled.\n');
  });

  it('installs from a git URL at a ref with the system git; without git it says what to do', async () => {
    const repo = join(base, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(
      join(repo, 'gemini-extension.json'),
      JSON.stringify({ name: 'from-git', version: '1.0.0' }),
    );
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'v1');
    git(repo, 'tag', 'v1');
    writeFileSync(
      join(repo, 'gemini-extension.json'),
      JSON.stringify({ name: 'from-git', version: '2.0.0' }),
    );
    git(repo, 'commit', '-q', '-am', 'v2');
    const url = `file://${repo}`;
    const r = await run(['extensions', 'install', url, '--ref', 'v1', '--consent']);
    expect(r.stderr).not.toContain('Failed');
    expect(r.code).toBe(0);
    const dir = join(project.home, '.gemini', 'extensions', 'from-git');
    expect(JSON.parse(readFileSync(join(dir, 'gemini-extension.json'), 'utf8'))).toMatchObject({
      version: '1.0.0',
    });
    expect(JSON.parse(readFileSync(join(dir, '.gemini-extension-install.json'), 'utf8'))).toEqual({
      source: url,
      type: 'git',
      ref: 'v1',
    });
    expect(existsSync(join(dir, '.git'))).toBe(true);
    const noGit = await run(
      ['extensions', 'install', 'https://example.invalid/x.git', '--consent'],
      {
        PATH: join(base, 'empty-path'),
      },
    );
    expect(noGit.code).toBe(1);
    expect(noGit.stderr).toContain('needs git, which was not found on the PATH');
  });

  it('refuses to install into an untrusted folder unless the user agrees to trust it', async () => {
    writeFileSync(join(project.home, '.gemini', 'trustedFolders.json'), '{}');
    const refused = await run(['extensions', 'install', '../src/plain'], {}, 'n\n');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `Could not install extension because the current workspace at ${project.cwd} is not trusted.`,
    );
    const agreed = await run(['extensions', 'install', '../src/plain'], {}, 'y\ny\n');
    expect(agreed.code).toBe(0);
    expect(
      JSON.parse(readFileSync(join(project.home, '.gemini', 'trustedFolders.json'), 'utf8')),
    ).toEqual({
      [project.cwd]: 'TRUST_FOLDER',
    });
  });

  it('new <path> <template> makes a folder that validates, links and runs: -l lists it, -e none leaves it out', async () => {
    const made = await run(['extensions', 'new', '../made', 'context']);
    expect(made.code).toBe(0);
    expect((await run(['extensions', 'validate', '../made'])).stdout).toBe(
      'Extension ../made has been successfully validated.\n',
    );
    expect((await run(['extensions', 'link', '../made', '--consent'])).code).toBe(0);
    const listed = await run(['-l']);
    expect(listed.stdout).toBe('Installed extensions:\n- made\n');
    const server = new FakeGeminiServer({ turns: [textChunks('one'), textChunks('two')] });
    const url = await server.start();
    try {
      const env = { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: url };
      expect((await run(['-p', 'hi'], env)).code).toBe(0);
      const off = await run(['-e', 'none', '-p', 'hi'], env);
      expect(off.code).toBe(0);
      const [withIt, without] = server.requests.map((q) => JSON.stringify(q.body));
      expect(withIt).toContain(`--- Context from: ${join(base, 'made', 'GEMINI.md')} ---`);
      expect(without).not.toContain('extension_context');
      const unknown = await run(['-e', 'nope', '-l']);
      expect(unknown.stderr).toContain('Extension not found: nope');
      expect(unknown.stdout).toBe('Installed extensions:\n- made\n');
    } finally {
      await server.close();
    }
  });
});
