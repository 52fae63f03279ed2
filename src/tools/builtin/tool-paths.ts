import path from 'node:path';
import type { SandboxFilesystem } from '../../core/workspace-types.js';
import { WorkspaceAccessError } from '../../workspace/workspace-access-error.js';
import { errorResult } from './builtin-tool.js';
import type { ToolResult } from '../../core/agent-tool.js';

/** gemini-cli's error type for a refused path. */
export const PATH_NOT_IN_WORKSPACE = 'path_not_in_workspace';

/**
 * Resolves a path argument as gemini-cli's tools do: against the cwd, with a leading `@` dropped when the model
 * copied a user's `@path` reference (unless a literal `@…` path exists). Returns the approved real path, or a
 * `{ error }` result saying why the workspace refused it.
 */
export async function resolveToolPath(
  fs: SandboxFilesystem,
  input: string,
  access: 'read' | 'write',
  display = 'Path not in workspace.',
): Promise<{ path: string } | { result: ToolResult }> {
  let candidate = input;
  if (input.startsWith('@') && input.length > 1 && !(await fs.exists(input))) {
    candidate = input.slice(1);
  }
  try {
    return { path: await fs.resolvePath(candidate, access) };
  } catch (error) {
    if (error instanceof WorkspaceAccessError) {
      return { result: errorResult(error.message, PATH_NOT_IN_WORKSPACE, display) };
    }
    throw error;
  }
}

/** `target` relative to `root` (`.` for the root itself), as gemini-cli's `makeRelative`. */
export function makeRelative(target: string, root: string): string {
  const relative = path.relative(root, target);
  return relative === '' ? '.' : relative;
}

/** Shortens long paths for one-line descriptions (keeps the first segment and the tail), as gemini-cli. */
export function shortenPath(filePath: string, maxLen = 80): string {
  if (filePath.length <= maxLen) return filePath;
  const segments = filePath.split(path.sep);
  const first = segments[0] ?? '';
  let tail = segments[segments.length - 1] ?? '';
  for (let i = segments.length - 2; i > 0; i -= 1) {
    const next = `${segments[i]}${path.sep}${tail}`;
    if (first.length + next.length + 5 > maxLen) break;
    tail = next;
  }
  const shortened = `${first}${path.sep}...${path.sep}${tail}`;
  return shortened.length <= maxLen ? shortened : `...${filePath.slice(-(maxLen - 3))}`;
}

/** Forward-slash form of a relative path, for display. */
export function toPosix(relative: string): string {
  return relative.split(path.sep).join('/');
}
