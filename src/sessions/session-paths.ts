import { createHash } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ConfigurationError } from '../errors.js';

/** Prefix of gemini-cli's session file names. */
export const SESSION_FILE_PREFIX = 'session-';

/** gemini-cli's `sanitizeFilenamePart`: every character outside `[a-zA-Z0-9_-]` becomes `_`. */
export function sanitizeFilenamePart(value: string): string {
  return value.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/**
 * Checks a session id and returns its file-name form. Any non-empty string is accepted (as the reference SDK
 * does), except `.` and `..`.
 *
 * @throws ConfigurationError for an empty id, `.` or `..`.
 */
export function validateSessionId(sessionId: string): string {
  if (
    typeof sessionId !== 'string' ||
    sessionId === '' ||
    sessionId === '.' ||
    sessionId === '..'
  ) {
    throw new ConfigurationError(
      `Invalid session id ${JSON.stringify(sessionId)}: use a non-empty string other than "." and "..", ` +
        `for example crypto.randomUUID().`,
      { code: 'INVALID_SESSION_ID' },
    );
  }
  return sanitizeFilenamePart(sessionId);
}

/** The first 8 characters of the sanitized id: the suffix of gemini-cli's session file names. */
export function sessionShortId(sessionId: string): string {
  return sanitizeFilenamePart(sessionId).slice(0, 8);
}

/**
 * gemini-cli's session file name: `session-<YYYY-MM-DDTHH-MM>-<first 8 of sanitized id>.jsonl`, the time being
 * the first 16 characters of the ISO start time with `:` turned into `-`.
 */
export function sessionFileName(sessionId: string, startTime: Date): string {
  const stamp = startTime.toISOString().slice(0, 16).replace(/:/g, '-');
  return `${SESSION_FILE_PREFIX}${stamp}-${sessionShortId(sessionId)}.jsonl`;
}

/** gemini-cli's `projectHash`: sha256 (hex) of the project root string as given. */
export function projectHash(projectRoot: string): string {
  return createHash('sha256').update(projectRoot).digest('hex');
}

/**
 * gemini-cli's project slug: the basename of the resolved path, lower-cased, every run of characters outside
 * `[a-z0-9]` turned into one `-`, leading/trailing `-` trimmed, `project` when nothing is left.
 */
export function slugifyProjectName(projectRoot: string): string {
  const base = basename(resolve(projectRoot)) || 'project';
  return (
    base
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'project'
  );
}

/**
 * gemini-cli's global directory: `$GEMINI_CLI_HOME/.gemini`, else `<os.homedir()>/.gemini`
 * (`<os.tmpdir()>/.gemini` when there is no home directory).
 */
export function geminiGlobalDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env['GEMINI_CLI_HOME'] || homedir() || tmpdir();
  return join(home, '.gemini');
}

/** The key gemini-cli uses for a project in `projects.json` (resolved path, lower-cased on Windows). */
export function normalizeProjectPath(projectRoot: string): string {
  const resolved = resolve(projectRoot);
  return process.platform === 'win32' ? resolved.toLowerCase() : resolved;
}
