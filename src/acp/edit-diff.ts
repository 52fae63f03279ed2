import path from 'node:path';
import type { PlanEntry, ToolCallContent } from '@agentclientprotocol/sdk';
import { calculateReplacement } from '../tools/builtin/replacement.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import type { TodoList } from '../events.js';

/** The tools whose calls are shown as a diff of the file they edit. */
const EDIT_TOOLS = new Set(['write_file', 'replace']);

/** A file edit in progress: the file and its text before the call (null when it did not exist). */
export interface EditSnapshot {
  path: string;
  oldText: string | null;
}

/** True for `write_file` / `replace` calls with a file path. */
export function isEditCall(name: string, args: Record<string, unknown>): boolean {
  return EDIT_TOOLS.has(name) && typeof args['file_path'] === 'string' && args['file_path'] !== '';
}

/**
 * Reads the file an edit call is about to change, through the session's filesystem (the editor's buffer when the
 * client serves files; never outside the workspace).
 */
export async function snapshotEdit(
  args: Record<string, unknown>,
  fs: SandboxFilesystem,
  cwd: string,
): Promise<EditSnapshot> {
  const raw = String(args['file_path']);
  const file = path.resolve(cwd, raw.startsWith('@') ? raw.slice(1) : raw);
  const oldText = await fs.readFile(file).catch(() => null);
  return { path: file, oldText };
}

/** The text the call would write: `write_file`'s content, or `replace`'s edit applied to the old text. */
export function proposedText(
  name: string,
  args: Record<string, unknown>,
  snapshot: EditSnapshot,
): string | undefined {
  if (name === 'write_file')
    return typeof args['content'] === 'string' ? args['content'] : undefined;
  const oldString = args['old_string'];
  const newString = args['new_string'];
  if (typeof oldString !== 'string' || typeof newString !== 'string') return undefined;
  if (oldString === '') return snapshot.oldText === null ? newString : undefined;
  if (snapshot.oldText === null) return undefined;
  const current = snapshot.oldText.replace(/\r\n/g, '\n');
  const result = calculateReplacement(current, oldString, newString);
  return result.occurrences > 0 ? result.newContent : undefined;
}

/** ACP `diff` content (with gemini-cli's `_meta.kind`: add, delete or modify). */
export function diffContent(snapshot: EditSnapshot, newText: string): ToolCallContent {
  const kind = snapshot.oldText === null ? 'add' : newText === '' ? 'delete' : 'modify';
  return {
    type: 'diff',
    path: snapshot.path,
    oldText: snapshot.oldText,
    newText,
    _meta: { kind },
  };
}

/**
 * The entries of an ACP `plan` update for a `write_todos` display (gemini-cli's `TodoList`, the call's
 * `resultDisplay`), in the list's order. ACP has three statuses: `cancelled` becomes completed and `blocked` pending,
 * each noted in the text.
 */
export function planEntries(display: TodoList): PlanEntry[] {
  return display.todos.map((todo): PlanEntry => {
    switch (todo.status) {
      case 'in_progress':
      case 'completed':
        return { content: todo.description, priority: 'medium', status: todo.status };
      case 'cancelled':
        return {
          content: `${todo.description} (cancelled)`,
          priority: 'medium',
          status: 'completed',
        };
      case 'blocked':
        return { content: `${todo.description} (blocked)`, priority: 'medium', status: 'pending' };
      case 'pending':
        return { content: todo.description, priority: 'medium', status: 'pending' };
    }
  });
}
