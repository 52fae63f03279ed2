/**
 * Unbounded process output: a command that floods stdout with nobody reading keeps the SDK's memory bounded
 * (the queue drops the oldest unread output and says so), and exec keeps only its cap.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createArena } from './helpers/sandbox.js';

const CAP = 256 * 1024;
const arena = createArena(() => undefined, { maxOutputBytes: CAP });
afterAll(() => arena.cleanup());

describe('bounded shell output', () => {
  it("start('yes') with nobody reading keeps at most the cap queued, with a truncation note", async () => {
    const proc = await arena.workspace.shell.start('yes');
    // Let it write far more than the cap (it writes tens of MB per second).
    await new Promise((resolve) => setTimeout(resolve, 500));
    proc.kill('SIGKILL');
    // Nobody has read anything yet: everything it wrote went through the bounded queue.
    await proc.exited;
    let total = 0;
    let first: string | undefined;
    for await (const chunk of proc.stdout) {
      first ??= chunk;
      total += Buffer.byteLength(chunk);
    }
    expect(first).toMatch(/^\[Output truncated: \d+ bytes were dropped because nobody read them/);
    // The cap, plus at most one pipe chunk and the note.
    expect(total).toBeLessThan(CAP + 128 * 1024);
  });

  it('exec of a flood keeps the newest bytes up to the cap', async () => {
    const result = await arena.workspace.shell.exec(
      'head -c 5000000 /dev/zero | tr "\\0" x; echo END',
    );
    expect(result.stdout.startsWith('[Output truncated: the first')).toBe(true);
    expect(result.stdout.trimEnd().endsWith('END')).toBe(true);
    expect(Buffer.byteLength(result.stdout)).toBeLessThan(CAP + 200);
  });
});
