import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { PathGuard, type WorkspaceRoot } from './path-guard.js';
import type { SandboxFilesystem, SandboxShell } from '../core/workspace-types.js';
import { WorkspaceFilesystem } from './workspace-filesystem.js';
import { DEFAULT_MAX_READ_BYTES } from './safe-io.js';
import {
  allowAllCommands,
  DEFAULT_MAX_OUTPUT_BYTES,
  WorkspaceShell,
  type CommandCheck,
} from './workspace-shell.js';

function positiveLimit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ConfigurationError(
      `${name} must be a positive whole number of bytes (got ${value}).`,
    );
  }
  return value;
}

/** Options for {@link createWorkspace}. */
export interface WorkspaceOptions {
  /** The session's working directory (must exist). Relative paths resolve against `process.cwd()`. */
  cwd: string;
  /** More writable roots (gemini-cli's `includeDirectories`); relative ones resolve against `cwd`. */
  includeDirectories?: string[];
  /** Where debug lines go (refusals, kills). */
  logger?: Logger;
  /** Asked before every `ctx.shell` command (default: allow all). The policy engine plugs in here. */
  commandCheck?: CommandCheck;
  /** Environment commands start from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Largest file any read path loads (default 20 MiB, gemini-cli's `read_file` limit). */
  maxReadBytes?: number;
  /** Output kept per buffer by `ctx.shell` (`exec`; unread output queued by `start`); default 1 MiB. */
  maxOutputBytes?: number;
  /**
   * Read regular files that have more than one hard link (default false: refused, because another name of
   * the same file may lie outside the workspace). Writes to such files are always refused.
   */
  allowHardLinkReads?: boolean;
}

/** A session's sandbox: the roots, and the `fs` / `shell` handed to tools. */
export interface Workspace {
  /** The working directory (absolute real path). */
  readonly cwd: string;
  /** Every root, writable ones first (absolute real paths). */
  readonly roots: readonly WorkspaceRoot[];
  /** Workspace-bound file access (`ctx.fs`). */
  readonly fs: SandboxFilesystem;
  /** Workspace-bound, policy-checked commands (`ctx.shell`). */
  readonly shell: SandboxShell;
  /**
   * Runs a command without the command check (the `cwd` boundary still holds). Only for
   * `run_shell_command`, whose call the scheduler's policy already approved.
   */
  readonly execUnchecked: WorkspaceShell['execUnchecked'];
  /** Adds a writable root (an existing directory). Returns its real path; throws `ConfigurationError`. */
  addRoot(dir: string): string;
  /**
   * Adds a read-only root: an existing directory or file (e.g. an activated skill's folder). Returns its
   * real path; throws `ConfigurationError` when it does not exist.
   */
  addReadOnlyRoot(target: string): string;
}

/**
 * Builds the workspace sandbox for a session (synchronously): `cwd` plus `includeDirectories` as writable
 * roots. Throws a `ConfigurationError` when `cwd` or an included directory does not exist.
 */
export function createWorkspace(options: WorkspaceOptions): Workspace {
  const absolute = path.resolve(options.cwd);
  let cwd: string;
  try {
    cwd = realpathSync(absolute);
    if (!statSync(cwd).isDirectory()) throw new Error('not a directory');
  } catch (error) {
    throw new ConfigurationError(
      `Working directory ${absolute} does not exist or is not a directory. Pass an existing directory as cwd.`,
      { cause: error },
    );
  }
  const logger = options.logger ?? silentLogger;
  const guard = new PathGuard(cwd);
  for (const dir of options.includeDirectories ?? []) guard.addRoot(dir, false);
  const fs = new WorkspaceFilesystem(guard, logger, {
    maxReadBytes: positiveLimit(options.maxReadBytes, DEFAULT_MAX_READ_BYTES, 'maxReadBytes'),
    allowHardLinkReads: options.allowHardLinkReads ?? false,
  });
  const shell = new WorkspaceShell({
    guard,
    logger,
    commandCheck: options.commandCheck ?? allowAllCommands,
    maxOutputBytes: positiveLimit(
      options.maxOutputBytes,
      DEFAULT_MAX_OUTPUT_BYTES,
      'maxOutputBytes',
    ),
    ...(options.env ? { baseEnv: options.env } : {}),
  });
  return {
    cwd,
    get roots() {
      return guard.roots;
    },
    fs,
    shell,
    execUnchecked: (command, execOptions) => shell.execUnchecked(command, execOptions),
    addRoot: (dir) => guard.addRoot(dir, false),
    addReadOnlyRoot: (target) => guard.addRoot(target, true),
  };
}
