/**
 * Racing attacks: a real swapper process exchanges a directory inside the workspace with a symlink that
 * points outside (`renameat2(RENAME_EXCHANGE)` in a tight loop) while the sandbox reads, writes, creates,
 * truncates, renames, copies, lists and deletes through that directory. Every test makes at least 2,000
 * attempts and must see zero escapes: no read returns an outside canary, and nothing outside changes.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CANARY, createArena, resultText, type Arena } from './helpers/sandbox.js';
import { startSwapper, swapperUnavailable, type Swapper } from './helpers/swapper.js';

const ATTEMPTS = 2_000;
const INSIDE = 'inside-content';
const skip = swapperUnavailable();
if (skip && process.env.CI) throw new Error(`CI must run the racing tests: ${skip}`);

let arena: Arena;
let swapper: Swapper;

beforeEach(async () => {
  arena = createArena((ws, outside) => {
    mkdirSync(path.join(ws, 'd', 'sub', 'deeper'), { recursive: true });
    writeFileSync(path.join(ws, 'd', 'secret'), INSIDE);
    writeFileSync(path.join(ws, 'd', 'sub', 'keep'), INSIDE);
    writeFileSync(path.join(ws, 'a.txt'), INSIDE);
    symlinkSync(outside, path.join(ws, 'l'));
  });
  swapper = await startSwapper(path.join(arena.ws, 'd'), path.join(arena.ws, 'l'));
});

afterEach(async () => {
  await swapper.stop();
  arena.assertOutsideUntouched();
  arena.cleanup();
});

/** Runs `attempt` ATTEMPTS times; errors are refusals (fine). Returns how many attempts succeeded. */
async function race(attempt: (i: number) => Promise<unknown>): Promise<number> {
  let succeeded = 0;
  for (let i = 0; i < ATTEMPTS; i += 1) {
    try {
      await attempt(i);
      succeeded += 1;
    } catch {
      // Refused or raced: never an escape by itself; the canaries decide.
    }
  }
  return succeeded;
}

// Each test is a bounded loop of ATTEMPTS operations against a swapper that holds a whole core: a few seconds
// on an idle machine, several times that on a loaded shared one — hence the explicit per-test budget.
describe.skipIf(skip !== '')(
  'racing swapper (renameat2 RENAME_EXCHANGE)',
  { timeout: 120_000 },
  () => {
    it('ctx.fs.readFile never returns the outside canary', async () => {
      let escapes = 0;
      let inside = 0;
      await race(async () => {
        const text = await arena.ctx.fs.readFile('d/secret');
        if (text === CANARY) escapes += 1;
        if (text === INSIDE) inside += 1;
      });
      expect(escapes).toBe(0);
      expect(inside).toBeGreaterThan(0);
    });

    it('ctx.fs.readFileBytes and stat never reach the outside canary', async () => {
      let escapes = 0;
      await race(async () => {
        const bytes = await arena.ctx.fs.readFileBytes('d/sub/keep');
        if (bytes && Buffer.from(bytes).toString() === CANARY) escapes += 1;
        const info = await arena.ctx.fs.stat('d/sub/deeper');
        if (info && info.path.startsWith(arena.outside)) escapes += 1;
      });
      expect(escapes).toBe(0);
    });

    it('ctx.fs.writeFile never writes (or truncates) outside', async () => {
      await race((i) => arena.ctx.fs.writeFile('d/secret', i % 2 ? `w${i}` : ''));
    });

    it('ctx.fs.writeFile never creates a file or directory outside', async () => {
      await race((i) => arena.ctx.fs.writeFile(`d/new-${i}/f`, 'created'));
    });

    it('ctx.fs.mkdir never creates outside', async () => {
      await race((i) => arena.ctx.fs.mkdir(`d/m-${i}`, { recursive: i % 2 === 0 }));
    });

    it('ctx.fs.rm (recursive) never deletes outside', async () => {
      await race(async (i) => {
        await arena.ctx.fs.mkdir('d/sub/deeper', { recursive: true }).catch(() => undefined);
        await arena.ctx.fs.writeFile('d/sub/deeper/keep', `r${i}`).catch(() => undefined);
        await arena.ctx.fs.rm('d/sub', { recursive: true, force: true });
      });
    });

    it('ctx.fs.rm of a single file never deletes outside', async () => {
      await race(async (i) => {
        await arena.ctx.fs.writeFile('d/secret', `x${i}`).catch(() => undefined);
        await arena.ctx.fs.rm('d/secret');
      });
    });

    it('ctx.fs.rename never moves anything in or out', async () => {
      await race(async (i) => {
        await arena.ctx.fs.writeFile('a.txt', `a${i}`).catch(() => undefined);
        await arena.ctx.fs.rename('a.txt', 'd/secret');
        await arena.ctx.fs.rename('d/secret', 'a.txt');
      });
    });

    it('ctx.fs.copyFile never copies the canary in or a file out', async () => {
      let escapes = 0;
      await race(async (i) => {
        if (i % 2) {
          await arena.ctx.fs.copyFile('d/secret', 'copied');
          if ((await arena.ctx.fs.readFile('copied')) === CANARY) escapes += 1;
        } else {
          await arena.ctx.fs.copyFile('a.txt', 'd/copy');
        }
      });
      expect(escapes).toBe(0);
    });

    it('read_file never returns the outside canary', async () => {
      let escapes = 0;
      await race(async () => {
        const result = await arena.tool('read_file', { file_path: 'd/secret' });
        if (resultText(result).includes(CANARY)) escapes += 1;
      });
      expect(escapes).toBe(0);
    });

    it('write_file never writes outside', async () => {
      await race((i) => arena.tool('write_file', { file_path: 'd/secret', content: `wf${i}` }));
    });

    it('replace never edits outside', async () => {
      writeFileSync(path.join(arena.outside, '..', 'ws', 'a.txt'), INSIDE);
      await race((i) =>
        arena.tool('replace', {
          file_path: i % 2 ? 'd/secret' : 'd/sub/keep',
          instruction: 'edit',
          old_string: 'CANARY',
          new_string: 'EDITED',
        }),
      );
    });

    it('grep_search and read_many_files never return the outside canary', async () => {
      let escapes = 0;
      await race(async (i) => {
        const result =
          i % 2
            ? await arena.tool('grep_search', { pattern: 'CANARY', dir_path: 'd' })
            : await arena.tool('read_many_files', { include: ['d/**'] });
        if (resultText(result).includes(CANARY)) escapes += 1;
      });
      expect(escapes).toBe(0);
    });

    it('list_directory and glob never list the outside directory', async () => {
      let escapes = 0;
      await race(async (i) => {
        const result =
          i % 2
            ? await arena.tool('list_directory', { dir_path: 'd/sub' })
            : await arena.tool('glob', { pattern: 'd/**/deeper/*' });
        const text = resultText(result);
        if (
          text.includes(arena.outside) ||
          (i % 2 === 1 && text.includes('deeper') && !text.includes('[DIR] deeper'))
        )
          escapes += 1;
      });
      expect(escapes).toBe(0);
      expect(readFileSync(path.join(arena.outside, 'secret'), 'utf8')).toBe(CANARY);
    });
  },
);
