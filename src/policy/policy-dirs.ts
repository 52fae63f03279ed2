import { readdirSync, statSync } from 'node:fs';
import { platform } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from '../logger.js';
import type { PolicyFileRef } from './policy-file.js';

/**
 * gemini-cli's system (admin-tier) policy folder: `/etc/gemini-cli/policies` (Linux),
 * `/Library/Application Support/GeminiCli/policies` (macOS), `C:\ProgramData\gemini-cli\policies` (Windows).
 */
export function systemPoliciesDir(): string {
  switch (platform()) {
    case 'darwin':
      return '/Library/Application Support/GeminiCli/policies';
    case 'win32':
      return 'C:\\ProgramData\\gemini-cli\\policies';
    default:
      return '/etc/gemini-cli/policies';
  }
}

/** What {@link gatherPolicyFiles} reads. */
export interface PolicyDirsOptions {
  /** Holds `.gemini/policies` (the user tier). */
  home: string;
  /** Read `~/.gemini/policies` when no `policyPaths` are given (`user` settings source on). */
  user: boolean;
  /** Read the admin tier (`system` settings source on). */
  system: boolean;
  /** `policyPaths` / `--policy`: files or folders that replace `~/.gemini/policies` when non-empty. */
  policyPaths?: readonly string[];
  /** `adminPolicyPaths` / `--admin-policy`: more admin-tier files or folders (ignored when the system folder has rules). */
  adminPolicyPaths?: readonly string[];
  /** The system folder (default {@link systemPoliciesDir}). */
  systemDir?: string;
  logger: Logger;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function hasToml(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.endsWith('.toml'));
  } catch {
    return false;
  }
}

/**
 * Why a system policy folder cannot be trusted (gemini-cli loads it only when root owns it and neither group
 * nor others may write to it), or undefined when it is fine. Not checked on Windows.
 */
function insecureReason(dir: string): string | undefined {
  if (platform() === 'win32') return undefined;
  const info = statSync(dir);
  if (info.uid !== 0) return 'Directory is not owned by root (uid 0)';
  if ((info.mode & 0o022) !== 0) return 'Directory is writable by group or others';
  return undefined;
}

/**
 * The policy files gemini-cli 0.61 loads besides its built-in defaults, as tiered references: the admin tier
 * (the system folder if it is secure, plus `adminPolicyPaths` unless the system folder already holds `.toml`
 * files) and the user tier (`policyPaths` when given, else `~/.gemini/policies`). Folders that do not exist are
 * skipped; explicit paths are kept so a missing one is reported when loaded. Workspace policies stay off, as in
 * gemini-cli.
 */
export function gatherPolicyFiles(options: PolicyDirsOptions): PolicyFileRef[] {
  const refs: PolicyFileRef[] = [];
  if (options.system) {
    const systemDir = options.systemDir ?? systemPoliciesDir();
    let systemHasRules = false;
    if (isDirectory(systemDir)) {
      const reason = insecureReason(systemDir);
      if (reason === undefined) {
        refs.push({ path: systemDir, tier: 'admin' });
        systemHasRules = hasToml(systemDir);
      } else {
        options.logger.warn(
          `Security Warning: Skipping system policies from ${systemDir}: ${reason}`,
          {
            dir: systemDir,
          },
        );
      }
    }
    const adminPaths = options.adminPolicyPaths ?? [];
    if (adminPaths.length > 0 && systemHasRules) {
      options.logger.warn(
        `Security Warning: Ignoring --admin-policy because system policies are already defined in ${systemDir}`,
        { dir: systemDir },
      );
    } else {
      for (const path of adminPaths) refs.push({ path: resolve(path), tier: 'admin' });
    }
  }
  const paths = options.policyPaths ?? [];
  if (paths.length > 0) {
    for (const path of paths) refs.push({ path: resolve(path), tier: 'user' });
  } else if (options.user) {
    const userDir = join(options.home, '.gemini', 'policies');
    if (isDirectory(userDir)) refs.push({ path: userDir, tier: 'user' });
  }
  return refs;
}
