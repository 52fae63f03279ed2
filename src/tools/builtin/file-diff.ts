import { basename } from 'node:path';
import type * as Diff from 'diff';
import type { StructuredPatch } from 'diff';
import { lazyRequire } from '../../lazy-require.js';

/** The `diff` package, loaded on the first file change described rather than when the SDK is imported (goal P2). */
let diffModule: typeof Diff | undefined;
function diff(): typeof Diff {
  diffModule ??= lazyRequire<typeof Diff>('diff');
  return diffModule;
}
import type { DiffStat, FileDiff } from '../../events.js';

/** gemini-cli's `DEFAULT_DIFF_OPTIONS`: 3 lines of context, whitespace significant. */
const DIFF_OPTIONS = { context: 3, ignoreWhitespace: false } as const;

function countChanges(patch: StructuredPatch): {
  added: number;
  removed: number;
  addedChars: number;
  removedChars: number;
} {
  let added = 0;
  let removed = 0;
  let addedChars = 0;
  let removedChars = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) {
        added++;
        addedChars += line.length - 1;
      } else if (line.startsWith('-')) {
        removed++;
        removedChars += line.length - 1;
      }
    }
  }
  return { added, removed, addedChars, removedChars };
}

/**
 * gemini-cli's `getDiffStat`: the model's change (`before` → `proposed`) and a human's edit of it (`proposed` →
 * `written`), counted in lines and characters of the structured patch.
 */
export function diffStat(
  fileName: string,
  before: string,
  proposed: string,
  written: string,
): DiffStat {
  const model = countChanges(
    diff().structuredPatch(
      fileName,
      fileName,
      before,
      proposed,
      'Current',
      'Proposed',
      DIFF_OPTIONS,
    ),
  );
  const user = countChanges(
    diff().structuredPatch(fileName, fileName, proposed, written, 'Proposed', 'User', DIFF_OPTIONS),
  );
  return {
    model_added_lines: model.added,
    model_removed_lines: model.removed,
    model_added_chars: model.addedChars,
    model_removed_chars: model.removedChars,
    user_added_lines: user.added,
    user_removed_lines: user.removed,
    user_added_chars: user.addedChars,
    user_removed_chars: user.removedChars,
  };
}

/**
 * The `FileDiff` gemini-cli's `write_file` and `replace` return for a change of `filePath` from `before` (null:
 * the file is new) to `after`. `labels` are the patch's old/new headers (`Original`/`Written` for write_file,
 * `Current`/`Proposed` for replace).
 */
export function fileDiff(
  filePath: string,
  before: string | null,
  after: string,
  labels: readonly [string, string],
): FileDiff {
  const fileName = basename(filePath);
  const old = before ?? '';
  return {
    fileDiff: diff().createPatch(fileName, old, after, labels[0], labels[1], DIFF_OPTIONS),
    fileName,
    filePath,
    originalContent: before,
    newContent: after,
    diffStat: diffStat(fileName, old, after, after),
    isNewFile: before === null,
  };
}
