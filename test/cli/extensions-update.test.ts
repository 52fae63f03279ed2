/**
 * `gemini-agent extensions update` against gemini 0.61's recording of the same commands
 * (scripts/gemini-reference/record-extension-update.mjs): local and git sources (the git one served by
 * `git http-backend` on loopback), sources changed between steps, consent, renames; the files left in
 * ~/.gemini/extensions and the lines printed. Where we differ on purpose (docs/decisions.md D27) the step says so.
 */
import { execFile } from 'node:child_process';
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
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitHttpServer, type GitHttpServer } from '../../scripts/git-http-server.mjs';
import { ensureBuilt, ROOT } from './helpers/built-cli.js';
import { cleanEnv, runCli, type TempProject } from './helpers/run-cli.js';

type Files = Record<string, string | object>;
interface RecordedCommand {
  argv: string[];
  input?: string[];
  status: number;
  stdout: string;
  stderr: string;
  extensions: Record<string, string> | null;
}
type RecordedStep = RecordedCommand | { write?: Files; commit?: Files };
const recorded = JSON.parse(
  readFileSync(join(ROOT, 'test', 'cli', 'fixtures', 'gemini-0.61-extension-update.json'), 'utf8'),
) as { sources: Files; gitSources: Files; steps: RecordedStep[] };

const run = promisify(execFile);
let base: string;
let project: TempProject;
let server: GitHttpServer;

function layOut(root: string, files: Files): void {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
}

function tree(dir: string): Record<string, string> | null {
  if (!existsSync(dir)) return null;
  const files: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      if (name === '.git') continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return files;
}

const git = (...args: string[]) =>
  run('git', ['-c', 'user.email=r@example.com', '-c', 'user.name=r', ...args], {
    cwd: join(base, 'gitwork', 'tools'),
  });

beforeAll(async () => {
  await ensureBuilt();
  // The recording's layout: <BASE>/home, <BASE>/project (trusted), <BASE>/src, the git source in <BASE>/git.
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gemini-agent-ext-update-')));
  project = {
    cwd: join(base, 'project'),
    home: join(base, 'home'),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
  mkdirSync(project.cwd, { recursive: true });
  mkdirSync(join(project.home, '.gemini'), { recursive: true });
  mkdirSync(join(base, 'git'));
  layOut(join(base, 'src'), recorded.sources);
  layOut(join(base, 'gitwork'), recorded.gitSources);
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-qm', 'v1');
  await run('git', [
    'clone',
    '-q',
    '--bare',
    join(base, 'gitwork', 'tools'),
    join(base, 'git', 'tools.git'),
  ]);
  await git('remote', 'add', 'origin', join(base, 'git', 'tools.git'));
  server = await startGitHttpServer(join(base, 'git'));
  writeFileSync(
    join(project.home, '.gemini', 'trustedFolders.json'),
    JSON.stringify({ [project.cwd]: 'TRUST_FOLDER' }),
  );
}, 300_000);
afterAll(async () => {
  await server?.close();
  await project?.cleanup();
});

/** Lines of gemini's output we do not expect verbatim, and why. */
function comparable(line: string): boolean {
  if (line === '') return false;
  // The id and the name's hash hash the source path, which holds the temp folder; gemini's list also has a
  // " name:" line we leave out. A consent text's server args and signature hold the clone's temp folder.
  if (/^ (name|ID): |^ {4}Config signature: |\/tmp\/gemini-extension/.test(line)) return false;
  // gemini's yargs help after a usage error, and its two-line report of a cancelled update.
  if (
    /^(gemini extensions update|Updates all|Positionals:|Options:| {2}name | {2}-| {6}--)/.test(
      line,
    )
  )
    return false;
  if (
    /^(Error updating extension|Updated extension not found|Error: Installation cancelled)/.test(
      line,
    )
  )
    return false;
  return true;
}

describe('gemini-agent extensions update, step by step as gemini 0.61', () => {
  it('updates the same extensions, writes the same files and prints the same lines', async () => {
    const extensionsDir = join(project.home, '.gemini', 'extensions');
    const norm = (text: string) => text.split(base).join('<BASE>').split(server.url).join('<GIT>');
    let enablementBeforeRename: Record<string, { overrides: string[] }> | undefined;
    for (const step of recorded.steps) {
      if (!('argv' in step)) {
        if (step.write) layOut(join(base, 'src'), step.write);
        if (step.commit) {
          layOut(join(base, 'gitwork'), step.commit);
          await git('add', '-A');
          await git('commit', '-qm', 'change');
          await git('push', '-q', 'origin', 'HEAD:main');
        }
        continue;
      }
      // The settings steps are replayed by extensions-config.test.ts.
      if (step.argv.includes('../src/cfg')) break;
      const label = step.argv.join(' ');
      const renaming = label === 'extensions update demo' && step.stderr.includes('Renaming');
      if (renaming) {
        enablementBeforeRename = JSON.parse(
          readFileSync(join(extensionsDir, 'extension-enablement.json'), 'utf8'),
        ) as Record<string, { overrides: string[] }>;
      }
      const r = await runCli(
        step.argv.map((a) => a.replace('<BASE>', base).replace('<GIT>', server.url)),
        {
          cwd: project.cwd,
          env: cleanEnv(project, { HOME: project.home }),
          ...(step.input ? { input: step.input.map((a) => `${a}\n`).join('') } : {}),
        },
      );
      const ours = norm(`${r.stdout}\n${r.stderr}`);
      // gemini exits 0 after an update that failed or a name not installed and 1 on a bad command line; we exit 1
      // and 42 (usage).
      const usage = step.stderr.includes('Show help');
      const expectedCode = usage
        ? 42
        : /not found\.|Installation cancelled/.test(step.stderr)
          ? 1
          : step.status;
      expect(r.code, `${label}\n${ours}`).toBe(expectedCode);
      const files = tree(extensionsDir);
      const theirs = step.extensions;
      if (enablementBeforeRename && theirs?.['extension-enablement.json'] !== undefined) {
        // We move the rules to the new name unchanged; gemini re-enables it and loses the workspace disable.
        const rules = JSON.parse(theirs['extension-enablement.json']) as Record<string, unknown>;
        rules['demo-two'] = JSON.parse(norm(JSON.stringify(enablementBeforeRename['demo'])));
        theirs['extension-enablement.json'] = JSON.stringify(rules, null, 2);
      }
      expect(files && JSON.parse(norm(JSON.stringify(files))), label).toEqual(
        theirs && { ...theirs, 'extension-enablement.json': expect.any(String) },
      );
      if (theirs?.['extension-enablement.json'] !== undefined) {
        expect(JSON.parse(norm(files?.['extension-enablement.json'] ?? '{}')), label).toEqual(
          JSON.parse(theirs['extension-enablement.json']),
        );
      }
      for (const line of step.stderr.split('\n').filter(comparable)) {
        const expected = line
          .replace('Run "gemini extensions list"', 'Run "gemini-agent extensions list"')
          // After the rename we kept the workspace disable (see above).
          .replace(/^✓ demo-two/, enablementBeforeRename ? '✗ demo-two' : '✓ demo-two');
        if (
          enablementBeforeRename &&
          label === 'extensions list' &&
          line === ' Enabled (Workspace): true'
        )
          continue;
        expect(ours, label).toContain(expected);
      }
      if (step.stderr.includes('Error: Installation cancelled for "tools"')) {
        expect(ours).toContain('Failed to update "tools": Installation cancelled for "tools".');
      }
      if (usage) expect(ours).toContain('gemini-agent extensions --help');
    }
    expect(enablementBeforeRename, 'the recording has the rename step').toBeDefined();
  }, 600_000);
});
