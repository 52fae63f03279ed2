import { readFile, realpath } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { silentLogger, type Logger } from '../logger.js';
import { isWithin } from './skill-loader.js';

/** A rule of gemini-cli's `trustedFolders.json`. */
export const TrustLevel = z.enum(['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST']);
/** A rule of gemini-cli's `trustedFolders.json`. */
export type TrustLevel = z.infer<typeof TrustLevel>;

/** gemini-cli's `trustedFolders.json`: absolute folder path → trust level. */
export const TrustedFoldersFile = z.record(z.string(), TrustLevel);
/** gemini-cli's `trustedFolders.json`: absolute folder path → trust level. */
export type TrustedFoldersFile = z.infer<typeof TrustedFoldersFile>;

/** Where to find the trusted-folders file. */
export interface TrustedFoldersLocation {
  /** Home directory holding `.gemini/` (`GEMINI_CLI_HOME` or the OS home). */
  home: string;
  /** Environment read for `GEMINI_CLI_TRUSTED_FOLDERS_PATH`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** `GEMINI_CLI_TRUSTED_FOLDERS_PATH`, else `<home>/.gemini/trustedFolders.json` (as gemini-cli). */
export function trustedFoldersPath(location: TrustedFoldersLocation): string {
  const override = location.env?.['GEMINI_CLI_TRUSTED_FOLDERS_PATH'];
  return override !== undefined && override !== ''
    ? resolve(override)
    : join(location.home, '.gemini', 'trustedFolders.json');
}

/**
 * What gemini-cli's trusted-folders file says about `folder`: `true` (TRUST_FOLDER on it or an ancestor, or
 * TRUST_PARENT on a sibling/child path), `false` (DO_NOT_TRUST), or `undefined` when no rule matches or the
 * file is missing. The matching rule with the longest path wins; paths compare by real path. A malformed file
 * is reported with a warning and treated as missing.
 */
export async function readFolderTrust(
  folder: string,
  location: TrustedFoldersLocation,
  logger: Logger = silentLogger,
): Promise<boolean | undefined> {
  const file = trustedFoldersPath(location);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      logger.warn(`Cannot read trusted folders file ${file}; treating the folder as untrusted.`, {
        file,
      });
    }
    return undefined;
  }
  let rules: TrustedFoldersFile;
  try {
    const parsed = TrustedFoldersFile.safeParse(JSON.parse(stripJsonComments(text)));
    if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'invalid');
    rules = parsed.data;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn(
      `Ignoring trusted folders file ${file}: it must be a JSON object mapping folder paths to TRUST_FOLDER, TRUST_PARENT or DO_NOT_TRUST (${reason}).`,
      { file },
    );
    return undefined;
  }

  const target = await realOrSelf(resolve(folder));
  let longest = -1;
  let decision: TrustLevel | undefined;
  for (const [rulePath, level] of Object.entries(rules)) {
    const effective = level === 'TRUST_PARENT' ? dirname(rulePath) : rulePath;
    if (!isWithin(target, await realOrSelf(resolve(effective)))) continue;
    if (rulePath.length > longest) {
      longest = rulePath.length;
      decision = level;
    }
  }
  if (decision === undefined) return undefined;
  return decision !== 'DO_NOT_TRUST';
}

async function realOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

/** Removes `//` and `/* *\/` comments outside strings (the file may hold comments, as gemini-cli allows). */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}
