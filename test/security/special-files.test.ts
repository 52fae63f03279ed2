/**
 * Non-regular files, hard links and oversized files: refused with a clear, typed error before any blocking
 * call, by every read and write path.
 */
import { spawnSync } from 'node:child_process';
import { linkSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY, createArena, resultText, type Arena } from './helpers/sandbox.js';

let arena: Arena;
let server: net.Server;
const GIB = 1024 * 1024 * 1024;

beforeAll(async () => {
  arena = createArena((ws, outside) => {
    writeFileSync(path.join(ws, 'a.txt'), 'alpha');
    for (const name of ['f1', 'f2', 'f3', 'f4']) {
      expect(spawnSync('mkfifo', [path.join(ws, name)]).status).toBe(0);
    }
    linkSync(path.join(outside, 'secret'), path.join(ws, 'hard'));
    // A 1 GiB sparse file: no disk used, but any path that reads it whole would take a gigabyte of memory.
    writeFileSync(path.join(ws, 'huge.txt'), '');
    truncateSync(path.join(ws, 'huge.txt'), GIB);
    writeFileSync(path.join(ws, 'small.txt'), 'needle here\n');
  });
  server = net.createServer();
  await new Promise<void>((resolve) => server.listen(path.join(arena.ws, 'sock'), resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  arena.assertOutsideUntouched();
  arena.cleanup();
});

const codeOf = async (promise: Promise<unknown>): Promise<string | undefined> =>
  promise.then(
    () => undefined,
    (error: { code?: string }) => error.code,
  );

describe('FIFOs, sockets and devices', () => {
  it('four concurrent FIFO writes and reads are refused at once; other file I/O stays responsive', async () => {
    const fs = arena.ctx.fs;
    const fifoOps = ['f1', 'f2', 'f3', 'f4'].flatMap((name) => [
      codeOf(fs.writeFile(name, 'x')),
      codeOf(fs.readFile(name)),
      codeOf(fs.readFileBytes(name)),
    ]);
    // While those are in flight, a regular read through the sandbox and one through libuv's thread pool
    // both complete: nothing is blocked on a FIFO.
    expect(await fs.readFile('a.txt')).toBe('alpha');
    expect(await readFile(path.join(arena.ws, 'a.txt'), 'utf8')).toBe('alpha');
    expect(new Set(await Promise.all(fifoOps))).toEqual(new Set(['NOT_REGULAR_FILE']));
  });

  it('the file tools report a FIFO as not a regular file instead of hanging', async () => {
    const results = await Promise.all([
      arena.tool('read_file', { file_path: 'f1' }),
      arena.tool('write_file', { file_path: 'f2', content: 'x' }),
      arena.tool('replace', {
        file_path: 'f3',
        instruction: 'x',
        old_string: 'a',
        new_string: 'b',
      }),
      arena.tool('read_many_files', { include: ['f4'] }),
      arena.tool('grep_search', { pattern: 'needle' }),
    ]);
    expect(await arena.ctx.fs.readFile('a.txt')).toBe('alpha');
    for (const result of results.slice(0, 3)) expect(result.error).toBeDefined();
    expect(resultText(results[4]!)).toContain('small.txt');
  });

  it('a unix socket is refused', async () => {
    expect(await codeOf(arena.ctx.fs.readFile('sock'))).toBe('NOT_REGULAR_FILE');
    expect(await codeOf(arena.ctx.fs.writeFile('sock', 'x'))).toBe('NOT_REGULAR_FILE');
  });

  it('a device node inside the workspace is refused (when this user can make one)', async () => {
    const made = spawnSync('mknod', [path.join(arena.ws, 'zero'), 'c', '1', '5']).status === 0;
    if (!made) return;
    expect(await codeOf(arena.ctx.fs.readFile('zero'))).toBe('NOT_REGULAR_FILE');
    expect(await codeOf(arena.ctx.fs.writeFile('zero', 'x'))).toBe('NOT_REGULAR_FILE');
  });
});

describe('hard links', () => {
  it('refuses to read or overwrite a file with several links', async () => {
    expect(await codeOf(arena.ctx.fs.readFile('hard'))).toBe('HARD_LINK');
    expect(await codeOf(arena.ctx.fs.writeFile('hard', 'pwned'))).toBe('HARD_LINK');
    const result = await arena.tool('write_file', { file_path: 'hard', content: 'pwned' });
    expect(result.error).toBeDefined();
    expect(readFileSync(path.join(arena.outside, 'secret'), 'utf8')).toBe(CANARY);
  });

  it('allowHardLinkReads lets reads through; writes stay refused', async () => {
    const other = createArena(
      (ws, outside) => {
        linkSync(path.join(outside, 'secret'), path.join(ws, 'hard'));
      },
      { allowHardLinkReads: true },
    );
    try {
      expect(await other.ctx.fs.readFile('hard')).toBe(CANARY);
      expect(await codeOf(other.ctx.fs.writeFile('hard', 'pwned'))).toBe('HARD_LINK');
      other.assertOutsideUntouched();
    } finally {
      other.cleanup();
    }
  });
});

describe('one read cap for every read path', () => {
  it('ctx.fs.readFile / readFileBytes / copyFile refuse a 1 GiB sparse file with FILE_TOO_LARGE', async () => {
    expect(await codeOf(arena.ctx.fs.readFile('huge.txt'))).toBe('FILE_TOO_LARGE');
    expect(await codeOf(arena.ctx.fs.readFileBytes('huge.txt'))).toBe('FILE_TOO_LARGE');
    expect(await codeOf(arena.ctx.fs.copyFile('huge.txt', 'copy.txt'))).toBe('FILE_TOO_LARGE');
  });

  it('read_file and replace refuse it; grep_search and read_many_files skip it and say so', async () => {
    const read = await arena.tool('read_file', { file_path: 'huge.txt' });
    expect(read.error?.type).toBe('file_too_large');
    const edit = await arena.tool('replace', {
      file_path: 'huge.txt',
      instruction: 'x',
      old_string: 'a',
      new_string: 'b',
    });
    expect(edit.error).toBeDefined();
    const grep = await arena.tool('grep_search', { pattern: 'needle', include_pattern: '*.txt' });
    expect(resultText(grep)).toContain('small.txt');
    expect(resultText(grep)).toMatch(/Skipped 1 file.*huge\.txt.*File too large/s);
    const many = await arena.tool('read_many_files', { include: ['*.txt'] });
    expect(resultText(many)).toMatch(/huge\.txt.*(too large|exceeds)/s);
  });

  it('write_file still overwrites an oversized file (without reading it)', async () => {
    const result = await arena.tool('write_file', { file_path: 'huge.txt', content: 'small now' });
    expect(result.error).toBeUndefined();
    expect(await arena.ctx.fs.readFile('huge.txt')).toBe('small now');
    truncateSync(path.join(arena.ws, 'huge.txt'), GIB);
  });

  it('the cap is configurable', async () => {
    const small = createArena((ws) => writeFileSync(path.join(ws, 'k.txt'), 'x'.repeat(2048)), {
      maxReadBytes: 1024,
    });
    try {
      expect(await codeOf(small.ctx.fs.readFile('k.txt'))).toBe('FILE_TOO_LARGE');
    } finally {
      small.cleanup();
    }
  });
});
