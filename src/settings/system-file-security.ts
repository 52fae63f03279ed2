import { existsSync, lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { platform } from 'node:os';
import { dirname, resolve } from 'node:path';

/**
 * Why a system settings file cannot be trusted, in gemini-cli 0.61's words, or undefined when it can (or does not
 * exist). gemini-cli reads `/etc/gemini-cli/settings.json` and `system-defaults.json` (or the
 * `GEMINI_CLI_SYSTEM_*_PATH` overrides) only when root owns the file and every folder above it and neither group
 * nor others may write to any of them, checking the path as given and, when it differs, the path it resolves to:
 * anyone who can replace the file or a folder on its way could otherwise set settings that beat the user's own.
 * Not checked on Windows (gemini-cli checks ACLs there).
 */
export function insecureSystemFileReason(file: string): string | undefined {
  if (platform() === 'win32') return undefined;
  const given = resolve(file);
  if (!existsSync(given)) return undefined;
  let canonical = given;
  try {
    canonical = resolve(realpathSync(given));
  } catch {
    // gemini-cli checks the path as given when it cannot be resolved.
  }
  const givenFolders = foldersAbove(given);
  for (const folder of givenFolders) {
    if (!isSymlink(folder)) continue;
    const reason = insecurePathReason(folder, 'directory');
    if (reason !== undefined) return `Parent directory symlink '${folder}' is insecure: ${reason}`;
  }
  for (const folder of givenFolders) {
    const reason = insecurePathReason(folder, 'directory');
    if (reason !== undefined) return `Parent directory '${folder}' is insecure: ${reason}`;
  }
  const fileReason = insecurePathReason(given, 'file');
  if (fileReason !== undefined) return `File is insecure: ${fileReason}`;
  if (canonical === given) return undefined;
  const targetReason = insecurePathReason(canonical, 'file');
  if (targetReason !== undefined) return `Resolved target file is insecure: ${targetReason}`;
  for (const folder of foldersAbove(canonical)) {
    const reason = insecurePathReason(folder, 'directory');
    if (reason !== undefined)
      return `Resolved target parent directory '${folder}' is insecure: ${reason}`;
  }
  return undefined;
}

/** The folders holding `path`, nearest first, up to and including the root. */
function foldersAbove(path: string): string[] {
  const folders: string[] = [];
  let current = dirname(path);
  for (;;) {
    folders.push(current);
    const next = dirname(current);
    if (next === current) return folders;
    current = next;
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** One path's check: owned by root (a symlink too), not writable by group or others. */
function insecurePathReason(path: string, expected: 'file' | 'directory'): string | undefined {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `Failed to access path: ${(error as Error).message}`;
  }
  const isDirectory = stats.isDirectory();
  if (expected === 'directory' && !isDirectory) return 'Not a directory';
  if (expected === 'file' && !stats.isFile()) return 'Not a file';
  try {
    const link = lstatSync(path);
    if (link.isSymbolicLink() && link.uid !== 0) {
      return `Symlink '${path}' is not owned by root (uid 0). Current uid: ${link.uid}. To fix this, run: sudo chown -h root:root "${path}"`;
    }
  } catch {
    // The stat above succeeded; gemini-cli goes on with it.
  }
  const kind = isDirectory ? 'Directory' : 'File';
  if (stats.uid !== 0) {
    return `${kind} '${path}' is not owned by root (uid 0). Current uid: ${stats.uid}. To fix this, run: sudo chown root:root "${path}"`;
  }
  if ((stats.mode & 0o022) !== 0) {
    return `${kind} '${path}' is writable by group or others (mode: ${stats.mode.toString(8)}). To fix this, run: sudo chmod g-w,o-w "${path}"`;
  }
  return undefined;
}
