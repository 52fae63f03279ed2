import { describe, expect, it } from 'vitest';
import { diffStat, fileDiff } from './file-diff.js';

describe("fileDiff (gemini-cli's FileDiff and diffStat)", () => {
  it('counts the lines and characters of a replacement', () => {
    const diff = fileDiff('/w/b.txt', 'one\ntwo\nthree\n', 'one\n2\n22\nthree\n', [
      'Current',
      'Proposed',
    ]);
    expect(diff).toMatchObject({
      fileName: 'b.txt',
      filePath: '/w/b.txt',
      originalContent: 'one\ntwo\nthree\n',
      isNewFile: false,
      diffStat: {
        model_added_lines: 2,
        model_removed_lines: 1,
        model_added_chars: 3,
        model_removed_chars: 3,
      },
    });
    expect(diff.fileDiff).toContain('--- b.txt\tCurrent');
    expect(diff.fileDiff).toContain('-two\n+2\n+22\n');
  });

  it('a new file adds every line; a human edit of the proposal counts as user lines', () => {
    expect(fileDiff('/w/n.txt', null, 'a\nb\nc\n', ['Original', 'Written'])).toMatchObject({
      originalContent: null,
      isNewFile: true,
      diffStat: { model_added_lines: 3, model_removed_lines: 0, user_added_lines: 0 },
    });
    expect(diffStat('f', 'a\n', 'a\nb\n', 'a\nB\n')).toMatchObject({
      model_added_lines: 1,
      user_added_lines: 1,
      user_removed_lines: 1,
    });
  });
});
