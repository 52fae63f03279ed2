import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import { ScriptedModel, callTurn, textTurn } from '../testing/scripted-model.js';
import { tool } from '../tools/tool.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import { GeminiCliAgent } from './agent.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-fs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('session.setModel', () => {
  it('switches the model from the next sendStream on, and reports it', async () => {
    const model = new ScriptedModel([textTurn('a'), textTurn('b')]);
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      persist: false,
      model: 'gemini-2.5-pro',
    });
    const session = agent.session();
    expect(session.model).toBe('gemini-2.5-pro');
    await session.send('one');
    session.setModel('gemini-2.5-flash');
    expect(session.model).toBe('gemini-2.5-flash');
    const second = await session.send('two');
    expect(model.generateRequests.map((r) => r.model)).toEqual([
      'gemini-2.5-pro',
      'gemini-2.5-flash',
    ]);
    expect(second.events).toContainEqual({ type: 'model_info', value: 'gemini-2.5-flash' });
    session.setModel('auto');
    expect(session.model).toBe('gemini-3.1-pro-preview');
    expect(() => session.setModel('  ')).toThrow(ConfigurationError);
  });
});

describe('the filesystem option', () => {
  it("wraps ctx.fs for tools (built-in and custom) and keeps the workspace's checks", async () => {
    await writeFile(join(dir, 'a.txt'), 'disk');
    const reads: string[] = [];
    const peek = tool(
      { name: 'peek', description: 'reads a.txt', inputSchema: z.object({}) },
      async (_a, ctx) => ctx.fs.readFile('a.txt'),
    );
    const model = new ScriptedModel([
      callTurn({ name: 'peek' }),
      callTurn({ name: 'read_file', args: { file_path: 'a.txt' } }),
      textTurn('done'),
    ]);
    const agent = new GeminiCliAgent({
      cwd: dir,
      contentGenerator: model,
      persist: false,
      tools: [peek],
      filesystem: (base) =>
        withReadFile(base, async (path) => {
          reads.push(path);
          return (await base.readFile(path))?.toUpperCase() ?? null;
        }),
    });
    await agent.session().send('peek');
    expect(reads).toEqual(['a.txt']);
    expect(JSON.stringify(model.generateRequests[1]?.contents)).toContain('DISK');
    expect(() => new GeminiCliAgent({ filesystem: 'nope' as never }).session()).toThrow(
      ConfigurationError,
    );
  });
});

/** `base` with `readFile` replaced (every other member bound to `base`). */
function withReadFile(
  base: SandboxFilesystem,
  readFile: SandboxFilesystem['readFile'],
): SandboxFilesystem {
  return new Proxy(base, {
    get: (target, key) => {
      if (key === 'readFile') return readFile;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}
