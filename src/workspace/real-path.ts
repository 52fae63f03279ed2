import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

/** Most symlinks followed while resolving one path (Linux's own limit is 40). */
const MAX_SYMLINK_HOPS = 40;

/** Raised by {@link resolveRealPath} for a symlink loop or an over-long chain. */
export class SymlinkLoopError extends Error {
  constructor(readonly target: string) {
    super(`Too many levels of symbolic links while resolving "${target}".`);
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/**
 * Resolves an absolute path to the real path it designates, following every symlink — also dangling ones
 * (the path a write would create) — and resolving a missing tail through its nearest existing ancestor.
 * Throws {@link SymlinkLoopError} for loops; other I/O errors (e.g. EACCES) propagate.
 */
export async function resolveRealPath(absolute: string): Promise<string> {
  return resolveWithBudget(path.resolve(absolute), { hops: 0 });
}

async function resolveWithBudget(absolute: string, budget: { hops: number }): Promise<string> {
  try {
    return await realpath(absolute);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP') throw new SymlinkLoopError(absolute);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  const parentReal = await resolveWithBudget(parent, budget);
  const candidate = path.join(parentReal, path.basename(absolute));
  let isLink = false;
  try {
    isLink = (await lstat(candidate)).isSymbolicLink();
  } catch {
    // Missing: the tail is new.
  }
  if (!isLink) return candidate;
  // A dangling symlink: follow it to where a write would land.
  budget.hops += 1;
  if (budget.hops > MAX_SYMLINK_HOPS) throw new SymlinkLoopError(absolute);
  const target = await readlink(candidate);
  return resolveWithBudget(path.resolve(parentReal, target), budget);
}

/** True when `child` is `root` or lies under it (both absolute and normalised). */
export function isWithin(child: string, root: string): boolean {
  const fold = process.platform === 'darwin' || process.platform === 'win32';
  const a = fold ? child.toLowerCase() : child;
  const b = fold ? root.toLowerCase() : root;
  const relative = path.relative(b, a);
  return (
    relative === '' ||
    (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative))
  );
}
