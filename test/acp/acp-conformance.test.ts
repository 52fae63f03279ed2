import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/testing/index.js';
import { rpcError, startHarness, tempCwd, type Harness } from './helpers/acp-harness.js';

let project: { cwd: string; cleanup(): Promise<void> };
let harness: Harness;

beforeEach(async () => {
  project = await tempCwd();
  harness = await startHarness({ cwd: project.cwd, contentGenerator: new ScriptedModel([]) });
});
afterEach(async () => {
  await harness.server.close();
  await project.cleanup();
});

/** Every v1 stable agent request with parameters of the wrong shape. */
const BAD_PARAMS: Array<[string, unknown]> = [
  ['initialize', { protocolVersion: 'one' }],
  ['authenticate', {}],
  ['authenticate', { methodId: 7 }],
  ['logout', 'x'],
  ['session/new', { cwd: 42, mcpServers: [] }],
  ['session/new', { cwd: '/tmp' }],
  ['session/new', { cwd: '/tmp', mcpServers: [{ name: 'x' }] }],
  ['session/load', { sessionId: 'x' }],
  ['session/list', { cwd: 5 }],
  ['session/delete', {}],
  ['session/resume', { sessionId: 1, cwd: '/' }],
  ['session/close', {}],
  ['session/set_mode', { sessionId: 'x' }],
  ['session/set_config_option', { sessionId: 'x', configId: 'mode' }],
  ['session/prompt', { sessionId: 'x', prompt: 'text' }],
  ['session/prompt', { sessionId: 'x', prompt: [{ type: 'video', data: '' }] }],
  ['session/prompt', null],
];

describe('ACP conformance: wrong parameters and unknown sessions', () => {
  it.each(BAD_PARAMS)('%s with %j → -32602', async (method, params) => {
    const error = await rpcError(harness.ctx.request(method, params));
    expect(error.code).toBe(-32602);
  });

  it('every session-scoped request for an unknown session → -32002 with data.sessionId', async () => {
    const requests: Array<[string, unknown]> = [
      ['session/prompt', { sessionId: 'ghost', prompt: [{ type: 'text', text: 'hi' }] }],
      ['session/set_mode', { sessionId: 'ghost', modeId: 'yolo' }],
      ['session/set_config_option', { sessionId: 'ghost', configId: 'mode', value: 'yolo' }],
      ['session/load', { sessionId: 'ghost', cwd: project.cwd, mcpServers: [] }],
      ['session/resume', { sessionId: 'ghost', cwd: project.cwd }],
    ];
    for (const [method, params] of requests) {
      const raw = (harness.ctx as unknown as { request(m: string, p: unknown): Promise<unknown> })
        .request;
      const error = await rpcError(raw.call(harness.ctx, method, params));
      expect(error.code, method).toBe(-32002);
    }
    const error = await rpcError(
      harness.ctx.request(acp.methods.agent.session.prompt, {
        sessionId: 'ghost',
        prompt: [{ type: 'text', text: 'x' }],
      }),
    );
    expect(error.data).toEqual({ sessionId: 'ghost' });
    // The SDK's client treats -32002 for close and delete as done (ACP: both are idempotent).
    await harness.ctx.request(acp.methods.agent.session.close, { sessionId: 'ghost' });
    await harness.ctx.request(acp.methods.agent.session.delete, { sessionId: 'ghost' });
    // A cancel for an unknown session is a notification: nothing to answer, nothing breaks.
    await harness.ctx.notify(acp.methods.agent.session.cancel, { sessionId: 'ghost' });
    expect((await harness.ctx.request(acp.methods.agent.session.list, {})).sessions).toEqual([]);
  });

  it('unknown methods → -32601, extension notifications are ignored', async () => {
    expect((await rpcError(harness.ctx.request('session/fork', {}))).code).toBe(-32601);
    expect((await rpcError(harness.ctx.request('_vendor/thing', {}))).code).toBe(-32601);
    await harness.ctx.notify('_vendor/ping', {});
    expect((await harness.ctx.request(acp.methods.agent.session.list, {})).sessions).toEqual([]);
  });

  it('an empty prompt → -32602 and the session stays usable', async () => {
    const { sessionId } = await harness.newSession();
    const error = await rpcError(
      harness.ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: '' }],
      }),
    );
    expect(error.code).toBe(-32602);
    expect((await harness.prompt(sessionId, '/help')).stopReason).toBe('end_turn');
  });
});

describe('ACP robustness', () => {
  it('an oversized message closes the connection cleanly (sessions released)', async () => {
    const small = await startHarness(
      { cwd: project.cwd, contentGenerator: new ScriptedModel([]) },
      { maxMessageBytes: 4096 },
    );
    const { sessionId } = await small.newSession();
    const rejected = small.prompt(sessionId, 'x'.repeat(10_000)).then(
      () => 'answered',
      () => 'rejected',
    );
    await small.connection.closed;
    expect(await rejected).toBe('rejected');
    await small.server.close();
  });

  it('session/close while a prompt runs ends that prompt cancelled', async () => {
    const { tool, z } = await import('../../src/index.js');
    const { callTurn, textTurn } = await import('../../src/testing/index.js');
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const wait = tool(
      { name: 'wait_here', description: 'waits', inputSchema: z.object({}) },
      async (_a, ctx) => {
        started();
        await new Promise((resolve) =>
          ctx.signal.addEventListener('abort', resolve, { once: true }),
        );
        return 'stopped';
      },
    );
    const h = await startHarness({
      cwd: project.cwd,
      contentGenerator: new ScriptedModel([callTurn({ name: 'wait_here' }), textTurn('other')]),
      tools: [wait],
    });
    const a = await h.newSession();
    const b = await h.newSession();
    const first = h.prompt(a.sessionId, 'wait');
    await running;
    // Another session of the same connection is not blocked by the waiting one.
    expect((await h.prompt(b.sessionId, 'meanwhile')).stopReason).toBe('end_turn');
    await h.ctx.request(acp.methods.agent.session.close, { sessionId: a.sessionId });
    expect((await first).stopReason).toBe('cancelled');
    await h.server.close();
  });
});

describe('the root import stays light', () => {
  it('no module the root entry imports statically loads @agentclientprotocol/sdk at runtime', () => {
    const src = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');
    const seen = new Set<string>();
    const offenders: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(
        /^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms,
      )) {
        const specifier = match[1] as string;
        const statement = match[0];
        if (specifier.startsWith('@agentclientprotocol/sdk')) {
          // `import { type A, type B }` is erased too.
          const names = /\{([^}]*)\}/.exec(statement)?.[1] ?? '';
          const allTypes = names
            .split(',')
            .every((n) => n.trim() === '' || n.trim().startsWith('type '));
          if (!allTypes) offenders.push(file);
        } else if (specifier.startsWith('.')) {
          visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
        }
      }
    };
    visit(resolve(src, 'index.ts'));
    expect(seen.has(resolve(src, 'acp', 'acp-server.ts'))).toBe(true);
    expect(offenders).toEqual([]);
  });
});
