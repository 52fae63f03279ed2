import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  INSTALL_METADATA_FILE,
  ExtensionError,
  type InstallMetadata,
} from './extension-manifest.js';

/** `security.allowedExtensions` and `security.blockGitExtensions`, as the settings give them. */
export interface ExtensionSecurity {
  /** Regexes (JavaScript syntax, unanchored unless written with `^`/`$`); one must match the source. */
  allowedExtensions?: readonly unknown[] | undefined;
  /** Refuses git and GitHub-release sources (only when `allowedExtensions` is empty). */
  blockGitExtensions?: boolean | undefined;
}

/** The two security settings from merged settings (`security.*`), ignoring values of the wrong type. */
export function extensionSecurity(merged: { security?: unknown }): ExtensionSecurity {
  const security = merged.security as Record<string, unknown> | undefined;
  const allowed = security?.['allowedExtensions'];
  return {
    allowedExtensions: Array.isArray(allowed) ? allowed : undefined,
    blockGitExtensions: security?.['blockGitExtensions'] === true,
  };
}

/**
 * The string gemini-cli 0.61 matches `allowedExtensions` against: `getRealPath(source)`, the real path when the
 * source exists, else `path.resolve(source)`. A URL is therefore matched in a resolved form such as
 * `/cwd/https:/github.com/org/repo` (the `//` collapses), so a pattern anchored with `^https://` never matches a
 * remote source — gemini-cli behaves the same; write `github\.com/org/` instead.
 */
export function matchedSource(source: string, cwd: string): string {
  try {
    return realpathSync(resolve(cwd, source));
  } catch {
    return resolve(cwd, source);
  }
}

function isRemote(metadata: InstallMetadata | undefined): boolean {
  return metadata?.type === 'git' || metadata?.type === 'github-release';
}

function matchesAllowed(patterns: readonly unknown[], source: string, cwd: string): boolean {
  const subject = matchedSource(source, cwd);
  return patterns.some((pattern) => {
    try {
      return new RegExp(String(pattern)).test(subject);
    } catch (error) {
      throw new ExtensionError(
        `Invalid regex pattern in allowedExtensions setting: "${String(pattern)}. Error: ${(error as Error).message}`,
      );
    }
  });
}

/**
 * gemini-cli's install-time check: a non-empty `allowedExtensions` needs one regex to match the source; otherwise
 * `blockGitExtensions` refuses git and GitHub-release sources.
 *
 * @throws ExtensionError with gemini-cli's text (also for a pattern that is not a valid regex).
 */
export function checkInstallAllowed(
  security: ExtensionSecurity,
  metadata: InstallMetadata,
  cwd: string,
): void {
  const allowed = security.allowedExtensions ?? [];
  if (allowed.length > 0) {
    if (!matchesAllowed(allowed, metadata.source, cwd)) {
      throw new ExtensionError(
        `Installing extension from source "${metadata.source}" is not allowed by the "allowedExtensions" security setting.`,
      );
    }
  } else if (isRemote(metadata) && security.blockGitExtensions === true) {
    throw new ExtensionError(
      'Installing extensions from remote sources is disallowed by your current settings.',
    );
  }
}

/**
 * gemini-cli's load-time check of an installed folder (`dir`): with a non-empty `allowedExtensions` the folder
 * needs install metadata whose source matches; otherwise `blockGitExtensions` skips git and GitHub-release
 * installs. Returns the warning (gemini-cli's text) when the folder must not load, undefined when it may.
 * gemini-cli aborts the loading of every extension for a missing metadata file or a bad pattern; the SDK skips only
 * that folder, with the same text.
 */
export function loadBlockedReason(
  security: ExtensionSecurity,
  dir: string,
  metadata: InstallMetadata | undefined,
  cwd: string,
): string | undefined {
  const allowed = security.allowedExtensions ?? [];
  if (allowed.length > 0) {
    if (!metadata?.source) {
      return `Failed to load extension ${dir}. The ${INSTALL_METADATA_FILE} file is missing or misconfigured.`;
    }
    try {
      if (matchesAllowed(allowed, metadata.source, cwd)) return undefined;
    } catch (error) {
      return (error as Error).message;
    }
    return `Failed to load extension ${dir}. This extension is not allowed by the "allowedExtensions" security setting.`;
  }
  if (isRemote(metadata) && security.blockGitExtensions === true) {
    return `Failed to load extension ${dir}. Extensions from remote sources is disallowed by your current settings.`;
  }
  return undefined;
}
