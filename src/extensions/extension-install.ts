import type * as ChildProcesses from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { InstallMetadata } from './extension-manifest.js';
import { ExtensionError } from './extension-manifest.js';
import { builtinModule } from '../lazy-require.js';

/** Sources gemini-cli clones with git (and `file://`, which the SDK accepts too, for local repositories). */
const GIT_PREFIXES = [
  'http://',
  'https://',
  'git@',
  'sso://',
  'github:',
  'gitlab:',
  'ssh://',
  'file://',
];

/** How to fetch an install source: a git URL, or a local folder (resolved against `cwd`). */
export async function inferInstallMetadata(
  source: string,
  cwd: string,
  args: {
    ref?: string | undefined;
    autoUpdate?: boolean | undefined;
    allowPreRelease?: boolean | undefined;
  } = {},
): Promise<InstallMetadata> {
  if (GIT_PREFIXES.some((p) => source.startsWith(p))) {
    return {
      source,
      type: 'git',
      ...(args.ref === undefined ? {} : { ref: args.ref }),
      ...(args.autoUpdate === undefined ? {} : { autoUpdate: args.autoUpdate }),
      ...(args.allowPreRelease === undefined ? {} : { allowPreRelease: args.allowPreRelease }),
    };
  }
  if (args.ref !== undefined || args.autoUpdate) {
    throw new ExtensionError('--ref and --auto-update are not applicable for local extensions.');
  }
  const path = isAbsolute(source) ? source : resolve(cwd, source);
  try {
    await stat(path);
  } catch {
    throw new ExtensionError('Install source not found.');
  }
  return { source: path, type: 'local' };
}

/** `owner/repo` of a GitHub source (`https://github.com/o/r`, `git@github.com:o/r.git`, `github:o/r`). */
export function githubRepo(source: string): { owner: string; repo: string } | undefined {
  let rest: string | undefined;
  if (source.startsWith('git@github.com:')) rest = source.slice('git@github.com:'.length);
  else if (source.startsWith('github:')) rest = source.slice('github:'.length);
  else {
    try {
      const url = new URL(source);
      if (url.hostname === 'github.com') rest = url.pathname.slice(1);
    } catch {
      return undefined;
    }
  }
  const parts = rest?.replace(/\.git$/, '').split('/') ?? [];
  if (parts.length < 2 || !parts[0] || !parts[1]) return undefined;
  return { owner: parts[0], repo: parts[1] };
}

/**
 * gemini-cli's extension id: sha256 of `https://github.com/<owner>/<repo>` for a GitHub git source, else of the
 * install source, else of the name.
 */
export function extensionId(name: string, metadata: InstallMetadata | undefined): string {
  const gh =
    metadata && (metadata.type === 'git' || metadata.type === 'github-release')
      ? githubRepo(metadata.source)
      : undefined;
  const value = gh ? `https://github.com/${gh.owner}/${gh.repo}` : (metadata?.source ?? name);
  return createHash('sha256').update(value).digest('hex');
}

/** The environment git runs with: no prompts for credentials, no system pager or editor. */
export function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'echo',
    GCM_INTERACTIVE: 'never',
  };
}

/**
 * Clones a git source into `destination` with the system `git` (depth 1; `ref` fetched and checked out).
 *
 * @throws ExtensionError naming the source; when git is not installed, what to do instead.
 */
export async function cloneFromGit(metadata: InstallMetadata, destination: string): Promise<void> {
  const run = promisify(builtinModule<typeof ChildProcesses>('node:child_process').execFile);
  const git = (args: string[]) =>
    run('git', args, {
      cwd: destination,
      env: gitEnv(),
      timeout: 10 * 60_000,
      maxBuffer: 16 << 20,
    });
  try {
    await git(['clone', '--depth', '1', '--', metadata.source, '.']);
    if (metadata.ref !== undefined) {
      await git(['fetch', '--depth', '1', 'origin', '--', metadata.ref]);
      await git(['checkout', '--quiet', 'FETCH_HEAD']);
    }
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') {
      throw new ExtensionError(
        `Installing from ${metadata.source} needs git, which was not found on the PATH. Install git, or clone the repository yourself and install the folder.`,
        { cause: error },
      );
    }
    const detail = (e.stderr ?? e.message).trim();
    throw new ExtensionError(`Failed to clone Git repository from ${metadata.source} ${detail}`, {
      cause: error,
    });
  }
}

/**
 * The folder to install from: a local source as it is, a git source cloned into a fresh temp folder (`temp`,
 * for the caller to remove, also when this throws after creating it: it is then already removed).
 */
export async function fetchSource(
  metadata: InstallMetadata,
): Promise<{ from: string; temp: string | undefined }> {
  if (metadata.type !== 'git') return { from: metadata.source, temp: undefined };
  const temp = await cloneDir();
  try {
    await cloneFromGit(metadata, temp);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  return { from: temp, temp };
}

/** A fresh temp folder for a clone. */
export function cloneDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'gemini-extension'));
}

function makeWritable(path: string): void {
  const info = lstatSync(path);
  if (info.isDirectory()) {
    chmodSync(path, info.mode | 0o700);
    for (const child of readdirSync(path)) makeWritable(join(path, child));
  } else if (info.isFile()) {
    chmodSync(path, info.mode | 0o600);
  }
}

/** Copies an extension into its installed folder (links stay links), owner-writable as gemini-cli leaves it. */
export async function copyExtension(source: string, destination: string): Promise<void> {
  await cp(source, destination, { recursive: true, verbatimSymlinks: true });
  makeWritable(destination);
}

/** Writes `.gemini-extension-install.json`. */
export async function writeInstallMetadata(dir: string, metadata: InstallMetadata): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, '.gemini-extension-install.json'), JSON.stringify(metadata, null, 2));
}

/**
 * Adds `folder` to `trustedFolders.json` as `TRUST_FOLDER` (what gemini-cli does when the user agrees to trust the
 * workspace before an install).
 *
 * @throws ExtensionError when the file exists but is not a JSON object (it is not overwritten).
 */
export async function trustFolder(file: string, folder: string): Promise<void> {
  let rules: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      const value: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new Error('not an object');
      rules = value as Record<string, unknown>;
    } catch {
      throw new ExtensionError(
        `Cannot trust ${folder}: ${file} is not a JSON object of folder rules. Fix it, then retry.`,
      );
    }
  }
  rules[await realpath(folder).catch(() => folder)] = 'TRUST_FOLDER';
  await mkdir(resolve(file, '..'), { recursive: true });
  await writeFile(file, JSON.stringify(rules, null, 2));
}
