import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, relative, resolve, isAbsolute } from 'node:path';
import { z } from 'zod';
import type { Environment } from './env-expansion.js';
import { parseJsonc } from './jsonc.js';
import { SettingsFileError } from './settings-errors.js';
import { trustedFoldersPath } from './settings-paths.js';

/** A rule of gemini-cli's `trustedFolders.json`. */
export const TrustLevel = z.enum(['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST']);
/** A rule of gemini-cli's `trustedFolders.json`. */
export type TrustLevel = z.infer<typeof TrustLevel>;

/** Why a folder is (not) trusted. */
export type TrustSource =
  /** The `trustWorkspace` option or the CLI's `--skip-trust`. */
  | 'option'
  /** `GEMINI_CLI_TRUST_WORKSPACE` (`true`/`false`) or `GEMINI_RESTRICTED_MODE=true`. */
  | 'env'
  /** `security.folderTrust.enabled` is `false`: every folder is trusted. */
  | 'disabled'
  /** A rule of `trustedFolders.json`. */
  | 'file'
  /** No rule matched: untrusted. */
  | 'none';

/** Whether the working folder is trusted, and why. */
export interface FolderTrust {
  trusted: boolean;
  source: TrustSource;
  /** The trusted-folders file consulted (when `source` is `file` or `none`). */
  file?: string;
}

/** What {@link resolveFolderTrust} decides from. */
export interface FolderTrustOptions {
  /** The folder in question (the working directory). */
  folder: string;
  /** Holds `.gemini/trustedFolders.json`. */
  home: string;
  /** `security.folderTrust.enabled` (default `true`). */
  enabled?: boolean;
  /** An explicit decision (`trustWorkspace` option, `--skip-trust`): it beats everything else. */
  override?: boolean;
  env?: Environment;
}

/**
 * Decides whether a folder is trusted, as gemini-cli 0.61 does, first match wins: the explicit override;
 * `GEMINI_RESTRICTED_MODE=true` or `GEMINI_CLI_TRUST_WORKSPACE=false` (untrusted);
 * `GEMINI_CLI_TRUST_WORKSPACE=true`; folder trust disabled in the settings (trusted); the longest matching rule
 * of `trustedFolders.json` (`TRUST_FOLDER` on the folder or an ancestor, `TRUST_PARENT` on a sibling, or
 * `DO_NOT_TRUST`; paths compare by real path); otherwise untrusted.
 *
 * @throws SettingsFileError when `trustedFolders.json` is not valid JSON, not an object, or holds an unknown trust
 *   level (gemini-cli refuses to start then too).
 */
export function resolveFolderTrust(options: FolderTrustOptions): FolderTrust {
  if (options.override !== undefined) return { trusted: options.override, source: 'option' };
  const env = options.env ?? process.env;
  if (env['GEMINI_RESTRICTED_MODE'] === 'true' || env['GEMINI_CLI_TRUST_WORKSPACE'] === 'false') {
    return { trusted: false, source: 'env' };
  }
  if (env['GEMINI_CLI_TRUST_WORKSPACE'] === 'true') return { trusted: true, source: 'env' };
  if (options.enabled === false) return { trusted: true, source: 'disabled' };
  const file = trustedFoldersPath(options.home, env);
  const decision = matchTrustRules(options.folder, readTrustedFolders(file));
  if (decision === undefined) return { trusted: false, source: 'none', file };
  return { trusted: decision !== 'DO_NOT_TRUST', source: 'file', file };
}

/**
 * Reads `trustedFolders.json` (comments allowed): folder path → trust level. A missing file is an empty map.
 *
 * @throws SettingsFileError for a malformed file or an unknown trust level.
 */
export function readTrustedFolders(file: string): Map<string, TrustLevel> {
  const rules = new Map<string, TrustLevel>();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return rules;
    throw new SettingsFileError(
      `Cannot read the trusted folders file ${file}: ${(error as Error).message}`,
      { file },
      { cause: error },
    );
  }
  const { value, lineOf } = parseJsonc(text, file);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SettingsFileError(
      `Error in ${file}: Trusted folders file is not a valid JSON object. Write {"<folder path>": "TRUST_FOLDER"}.`,
      { file, line: 1 },
    );
  }
  for (const [path, level] of Object.entries(value)) {
    const parsed = TrustLevel.safeParse(level);
    if (!parsed.success) {
      const line = lineOf([path]);
      throw new SettingsFileError(
        `Error in ${file}${line === undefined ? '' : ` (line ${line})`}: Invalid trust level ${JSON.stringify(level)} for path "${path}". Possible values are: TRUST_FOLDER, TRUST_PARENT, DO_NOT_TRUST.`,
        { file, ...(line === undefined ? {} : { line }) },
      );
    }
    rules.set(path, parsed.data);
  }
  return rules;
}

/** The level of the longest rule path that covers `folder` (undefined: none). */
export function matchTrustRules(
  folder: string,
  rules: ReadonlyMap<string, TrustLevel>,
): TrustLevel | undefined {
  const target = realOrSelf(resolve(folder));
  let longest = -1;
  let decision: TrustLevel | undefined;
  for (const [rulePath, level] of rules) {
    const effective = level === 'TRUST_PARENT' ? dirname(rulePath) : rulePath;
    if (!isWithin(target, realOrSelf(resolve(effective)))) continue;
    if (rulePath.length > longest) {
      longest = rulePath.length;
      decision = level;
    }
  }
  return decision;
}

function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return existsSync(path) ? realpathSync(path) : path;
  } catch {
    return path;
  }
}
