import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'gas-fd-limit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a TypeScript `source` with `ulimit -n <limit>`; resolves with its exit code and output. */
function runLimited(
  limit: number,
  source: string,
): Promise<{ code: number | null; out: string; err: string }> {
  const file = join(dir, `child-${limit}-${Math.random().toString(16).slice(2)}.mts`);
  writeFileSync(file, source);
  return new Promise((done) => {
    const child = spawn(
      'bash',
      ['-c', `ulimit -n ${limit} && exec "$0" --import tsx "$1"`, process.execPath, file],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => done({ code, out, err }));
  });
}

const store = JSON.stringify(join(ROOT, 'src/sessions/file-session-store.ts'));

describe.runIf(process.platform === 'linux')('a process out of file descriptors', () => {
  it('300 sessions created and written at once under `ulimit -n 160` all succeed, every message stored', async () => {
    const result = await runLimited(
      160,
      `
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore } from ${store};
const chatsDir = mkdtempSync(join(tmpdir(), 'gas-fd-chats-'));
const store = new FileSessionStore({ chatsDir, maxOpenFiles: 32, sync: 'none' });
const T0 = '2026-12-03T10:00:00.000Z';
const errors: string[] = [];
await Promise.all(Array.from({ length: 300 }, async (_, i) => {
  try {
    const lease = await store.acquireLease('s' + i);
    await store.create(lease, { startTime: T0 });
    for (let m = 0; m < 3; m++) {
      await store.append(lease, [{ id: 'm' + m, timestamp: T0, type: 'user', content: [{ text: i + ':' + m }] }]);
    }
    await lease.release();
  } catch (e) { errors.push(String(e)); }
}));
let stored = 0;
for (let i = 0; i < 300; i++) stored += (await store.load('s' + i)).messages.length;
console.log(JSON.stringify({ errors: errors.slice(0, 3), errorCount: errors.length, stored }));
`,
    );
    expect(result.err).not.toMatch(/EMFILE/);
    expect(JSON.parse(result.out.trim().split('\n').at(-1) ?? '{}')).toEqual({
      errors: [],
      errorCount: 0,
      stored: 900,
    });
    expect(result.code).toBe(0);
  }, 120_000);
});
