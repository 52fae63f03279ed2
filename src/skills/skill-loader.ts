import { constants as fsConstants } from 'node:fs';
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AbortError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import {
  MAX_SKILL_DESCRIPTION_CHARS,
  MAX_SKILL_FILE_BYTES,
  type SkillDefinition,
  type SkillSource,
} from './skill-definition.js';
import { parseSkillMarkdown, sanitizeSkillName } from './skill-frontmatter.js';

/** The file that makes a directory a skill. */
export const SKILL_FILE_NAME = 'SKILL.md';

/** Child directories never scanned for skills (besides hidden ones), as in gemini-cli's glob. */
const IGNORED_CHILDREN = new Set(['node_modules']);

/** Options of {@link loadSkillsFromDir}. */
export interface LoadSkillsOptions {
  /** Receives a warning for every skipped skill (file and reason). Default: silent. */
  logger?: Logger;
  /** Tier recorded on the loaded skills. Default `'option'`. */
  source?: SkillSource;
  /** Recorded on the loaded skills (extension tier). */
  extensionName?: string;
  /** Marks the skills as built-in (pre-approved). */
  isBuiltin?: boolean;
  /**
   * Accept skill folders (and `SKILL.md` files) that are symlinks pointing outside the directory, as
   * `gemini skills link` creates in `~/.gemini/skills`. Default false: such skills are skipped with a warning,
   * so a cloned repository cannot share `~/.ssh` by linking a "skill" to it.
   */
  followSymlinks?: boolean;
  /** Stops loading (rejects with `AbortError`). */
  signal?: AbortSignal;
}

/**
 * Loads the skills of one directory with gemini-cli's depth rule: `dir/SKILL.md` makes `dir` a skill, and each
 * immediate subdirectory holding `SKILL.md` is a skill too; nothing deeper is scanned, hidden directories and
 * `node_modules` are skipped. A missing directory yields `[]`. A bad skill (no frontmatter, no name, binary,
 * too large, unreadable, a directory, a symlink leaving the directory) is skipped with a warning naming the file
 * and the reason; this function never rejects for a bad skill.
 */
export async function loadSkillsFromDir(
  dir: string,
  options: LoadSkillsOptions = {},
): Promise<SkillDefinition[]> {
  const logger = options.logger ?? silentLogger;
  const root = resolve(dir);
  checkAborted(options.signal);
  const rootStat = await stat(root).catch(() => undefined);
  if (!rootStat?.isDirectory()) {
    logger.debug(`No skills directory at ${root}`, { dir: root });
    return [];
  }
  let rootReal: string;
  let entries: { name: string; isDir: boolean; isLink: boolean }[];
  try {
    rootReal = await realpath(root);
    entries = (await readdir(root, { withFileTypes: true }))
      .map((e) => ({ name: e.name, isDir: e.isDirectory(), isLink: e.isSymbolicLink() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    logger.warn(`Error discovering skills in ${root}: ${describeError(error)}`, { dir: root });
    return [];
  }

  const skills: SkillDefinition[] = [];
  const own = await loadSkillFile(join(root, SKILL_FILE_NAME), rootReal, options);
  if (own) skills.push(own);

  for (const entry of entries) {
    checkAborted(options.signal);
    if (entry.name.startsWith('.') || IGNORED_CHILDREN.has(entry.name)) continue;
    if (!entry.isDir && !entry.isLink) continue;
    const child = join(root, entry.name);
    const folder = await childFolder(child, entry.isLink, rootReal, options, logger);
    if (folder === undefined) continue;
    const skill = await loadSkillFile(join(child, SKILL_FILE_NAME), folder, options);
    if (skill) skills.push(skill);
  }

  if (skills.length === 0 && entries.length > 0) {
    logger.debug(
      `No valid skills in ${root}: put SKILL.md (with name and description frontmatter) in it or in its subdirectories.`,
      { dir: root },
    );
  }
  return skills;
}

/** The real path of a child skill folder, or undefined when it is not a usable directory. */
async function childFolder(
  child: string,
  isLink: boolean,
  rootReal: string,
  options: LoadSkillsOptions,
  logger: Logger,
): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpath(child);
    if (!(await stat(real)).isDirectory()) return undefined;
  } catch {
    return undefined; // dangling symlink: not a skill folder
  }
  if (isLink && !options.followSymlinks && !isWithin(real, rootReal)) {
    if (await exists(join(child, SKILL_FILE_NAME))) {
      warnSkip(
        logger,
        join(child, SKILL_FILE_NAME),
        `the skill directory is a symlink to ${real}, outside ${rootReal}`,
      );
    }
    return undefined;
  }
  return real;
}

/**
 * Loads one `SKILL.md`. Returns undefined (silently) when the file does not exist, and undefined with a warning
 * when it exists but is not a usable skill.
 */
export async function loadSkillFile(
  file: string,
  folderReal: string,
  options: LoadSkillsOptions = {},
): Promise<SkillDefinition | undefined> {
  const logger = options.logger ?? silentLogger;
  checkAborted(options.signal);
  const info = await lstat(file).catch(() => undefined);
  if (!info) return undefined;
  if (info.isDirectory()) {
    warnSkip(logger, file, `${SKILL_FILE_NAME} is a directory, not a file`);
    return undefined;
  }
  if (info.isSymbolicLink()) {
    let target: string;
    try {
      target = await realpath(file);
    } catch (error) {
      warnSkip(logger, file, `cannot read it: ${describeError(error)}`);
      return undefined;
    }
    if (!options.followSymlinks && !isWithin(target, folderReal)) {
      warnSkip(logger, file, `it is a symlink to ${target}, outside the skill directory`);
      return undefined;
    }
  }

  let text: string;
  try {
    text = await readSkillText(file, options.signal);
  } catch (error) {
    if (error instanceof AbortError) throw error;
    warnSkip(
      logger,
      file,
      error instanceof SkipError ? error.message : `cannot read it: ${describeError(error)}`,
    );
    return undefined;
  }

  const parsed = parseSkillMarkdown(text);
  if (!parsed.ok) {
    warnSkip(logger, file, parsed.reason);
    return undefined;
  }
  const name = sanitizeSkillName(parsed.value.name);
  let description = parsed.value.description;
  if (description.length > MAX_SKILL_DESCRIPTION_CHARS) {
    logger.warn(
      `Skill ${file}: description is ${description.length} characters; truncated to ${MAX_SKILL_DESCRIPTION_CHARS}.`,
      { file, reason: 'description too long' },
    );
    description = `${description.slice(0, MAX_SKILL_DESCRIPTION_CHARS)}...`;
  }
  return {
    name,
    description,
    location: file,
    folder: folderReal,
    body: parsed.value.body,
    source: options.source ?? 'option',
    isBuiltin: options.isBuiltin ?? false,
    ...(options.extensionName === undefined ? {} : { extensionName: options.extensionName }),
  };
}

/** A reason to skip a file found while reading it. */
class SkipError extends Error {}

/**
 * Reads the file as UTF-8 text. Opens non-blocking (a FIFO named SKILL.md cannot hang the agent), then checks on
 * the open handle that it is a regular file below the size limit and holds no NUL bytes.
 */
async function readSkillText(file: string, signal: AbortSignal | undefined): Promise<string> {
  const handle = await open(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new SkipError('it is not a regular file');
    if (info.size > MAX_SKILL_FILE_BYTES) {
      throw new SkipError(`it is ${info.size} bytes; the limit is ${MAX_SKILL_FILE_BYTES}`);
    }
    const bytes = await handle.readFile(signal === undefined ? {} : { signal });
    if (bytes.length > MAX_SKILL_FILE_BYTES) {
      throw new SkipError(`it is over ${MAX_SKILL_FILE_BYTES} bytes`);
    }
    if (bytes.includes(0)) throw new SkipError('it is a binary file (contains NUL bytes)');
    const text = new TextDecoder('utf-8').decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (error) {
    if (signal?.aborted) throw new AbortError('Loading skills was aborted.', { cause: error });
    throw error;
  } finally {
    await handle.close();
  }
}

function warnSkip(logger: Logger, file: string, reason: string): void {
  logger.warn(`Skipping skill ${file}: ${reason}.`, { file, reason });
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError('Loading skills was aborted.');
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}

/** True when `child` is `parent` or lies below it (both absolute, already resolved). */
export function isWithin(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === undefined ? error.message : `${code} (${error.message})`;
  }
  return String(error);
}
