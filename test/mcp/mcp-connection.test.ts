import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import type { McpServerConfig } from '../../src/mcp/mcp-config.js';
import { McpConnection } from '../../src/mcp/mcp-connection.js';
import {
  eventually,
  everythingStdio,
  faultServer,
  processAlive,
  startEverything,
  type NetworkServer,
} from './helpers/mcp-servers.js';

const roots = mkdtempSync(join(tmpdir(), 'mcp-roots-'));

function connect(name: string, config: McpServerConfig, warnings: string[] = []): McpConnection {
  return new McpConnection(name, config, {
    clientInfo: { name: 'gemini-cli-mcp-client', version: 'test' },
    env: { ...process.env, MY_SECRET_TOKEN: 'hunter2', PLAIN_VALUE: 'visible' },
    redaction: {},
    cwd: process.cwd(),
    maxMessageBytes: 64 * 1024 * 1024,
    killGraceMs: 1000,
    roots: () => [roots],
    logger: silentLogger,
    onChange: () => {},
    onWarning: (_code, message) => warnings.push(message),
  });
}

const signal = () => new AbortController().signal;

function textOf(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((c) => c.text ?? '').join('\n');
}

describe('the everything server over each transport', () => {
  let sse: NetworkServer;
  let http: NetworkServer;
  beforeAll(async () => {
    [sse, http] = await Promise.all([startEverything('sse'), startEverything('streamableHttp')]);
  });
  afterAll(async () => {
    await Promise.all([sse?.stop(), http?.stop()]);
  });

  const configs = (): Array<[string, McpServerConfig]> => [
    ['stdio', everythingStdio()],
    ['sse (type: sse)', { url: `${sse.origin}/sse`, type: 'sse' }],
    ['streamable http (type: http)', { url: `${http.origin}/mcp`, type: 'http' }],
    ['streamable http (httpUrl)', { httpUrl: `${http.origin}/mcp` }],
    ['bare url falling back to SSE', { url: `${sse.origin}/sse` }],
  ];

  it.each([0, 1, 2, 3, 4])('connects, lists, calls and reports roots (%s)', async (index) => {
    const [, config] = configs()[index] as [string, McpServerConfig];
    const connection = connect('everything', config);
    try {
      await connection.start();
      expect(connection.reason).toBeUndefined();
      expect(connection.state).toBe('connected');
      const names = connection.tools.map((t) => t.definition.name);
      expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']));
      expect(connection.resources.length).toBeGreaterThan(0);
      expect(connection.prompts.length).toBeGreaterThan(0);
      const sum = await connection.callTool('get-sum', { a: 2, b: 3 }, { signal: signal() });
      expect(textOf(sum)).toContain('5');
      const rootsAnswer = await connection.callTool('get-roots-list', {}, { signal: signal() });
      expect(textOf(rootsAnswer)).toContain(`file://${roots}`);
    } finally {
      await connection.close();
    }
  });

  it('reports progress notifications for one call', async () => {
    const connection = connect('everything', { url: `${http.origin}/mcp`, type: 'http' });
    await connection.start();
    const seen: number[] = [];
    await connection.callTool(
      'trigger-long-running-operation',
      { duration: 0.2, steps: 2 },
      { signal: signal(), onProgress: (p) => seen.push(p.progress) },
    );
    await connection.close();
    expect(seen.length).toBeGreaterThanOrEqual(1);
  });
});

describe('stdio servers: environment, faults and teardown', () => {
  it('redacts secrets from the host environment but passes the server its own env', async () => {
    const connection = connect('everything', everythingStdio({ env: { OWN_API_KEY: 'mine' } }));
    await connection.start();
    const env = JSON.parse(textOf(await connection.callTool('get-env', {}, { signal: signal() })));
    await connection.close();
    expect(env['MY_SECRET_TOKEN']).toBeUndefined();
    expect(env['PLAIN_VALUE']).toBe('visible');
    expect(env['OWN_API_KEY']).toBe('mine');
    expect(env['GEMINI_CLI']).toBe('1');
  });

  it('skips unusable tools with a warning and keeps the rest (malformed schema, bad definition)', async () => {
    const warnings: string[] = [];
    const connection = connect('fault', faultServer(), warnings);
    await connection.start();
    const names = connection.tools.map((t) => t.definition.name);
    await connection.close();
    expect(names).toContain('echo');
    expect(names).not.toContain('bad-schema');
    expect(names).not.toContain('bad-definition');
    expect(warnings.join('\n')).toMatch(/'bad-schema'.*not a valid JSON Schema/);
    expect(warnings.join('\n')).toMatch(/'bad-definition'.*definition is invalid/);
  });

  it('lists 500 tools', async () => {
    const connection = connect('many', faultServer('many'));
    await connection.start();
    expect(connection.tools).toHaveLength(500);
    await connection.close();
  });

  it('receives a 10 MB result', async () => {
    const connection = connect('fault', faultServer());
    await connection.start();
    const result = await connection.callTool('big', {}, { signal: signal() });
    await connection.close();
    expect(textOf(result)).toHaveLength(10 * 1024 * 1024);
  });

  it('a server that crashes mid-call fails that call, then restarts on the next one', async () => {
    const warnings: string[] = [];
    const connection = connect('fault', faultServer(), warnings);
    await connection.start();
    await expect(connection.callTool('crash', {}, { signal: signal() })).rejects.toThrow(
      /Connection closed/,
    );
    expect(connection.state).toBe('failed');
    expect(warnings.join('\n')).toContain('crashing now');
    const again = await connection.callTool('echo', { text: 'back' }, { signal: signal() });
    expect(textOf(again)).toBe('echo: back');
    expect(connection.state).toBe('connected');
    await connection.close();
  });

  it('an abort cancels a hanging call', async () => {
    const connection = connect('fault', faultServer());
    await connection.start();
    const controller = new AbortController();
    const call = connection.callTool('hang', {}, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(call).rejects.toThrow();
    await connection.close();
  });

  it('a hanging call times out after the server timeout', async () => {
    const connection = connect('fault', faultServer('default', { timeout: 300 }));
    await connection.start();
    await expect(connection.callTool('hang', {}, { signal: signal() })).rejects.toThrow(
      /timed out/i,
    );
    await connection.close();
  });

  it.each([
    ['hang-init', 500, /timed out/i],
    ['exit', undefined, /exiting at once/],
    ['empty', undefined, /No prompts, tools, or resources found on the server/],
  ])('a server that fails to start (%s) is failed with a reason', async (mode, timeout, reason) => {
    const connection = connect('fault', faultServer(mode, timeout ? { timeout } : {}));
    await connection.start();
    expect(connection.state).toBe('failed');
    expect(connection.reason).toMatch(reason);
    await connection.close();
  });

  it('a command that does not exist fails with the spawn error', async () => {
    const connection = connect('nope', { command: '/no/such/command' });
    await connection.start();
    expect(connection.state).toBe('failed');
    expect(connection.reason).toMatch(/Error connecting to MCP server 'nope': .*ENOENT/);
  });

  it('close() ends the server and the processes it started', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'mcp-pid-')), 'pid');
    const connection = connect('fault', faultServer('default', { pidFile }));
    await connection.start();
    const serverPid = Number(readFileSync(pidFile, 'utf8'));
    const childPid = Number(textOf(await connection.callTool('spawn', {}, { signal: signal() })));
    expect(processAlive(serverPid)).toBe(true);
    expect(processAlive(childPid)).toBe(true);
    await connection.close();
    expect(await eventually(() => !processAlive(serverPid) && !processAlive(childPid))).toBe(true);
  });

  it('a crashed server leaves no orphans behind', async () => {
    const connection = connect('fault', faultServer());
    await connection.start();
    const childPid = Number(textOf(await connection.callTool('spawn', {}, { signal: signal() })));
    await connection.callTool('crash', {}, { signal: signal() }).catch(() => undefined);
    expect(await eventually(() => !processAlive(childPid))).toBe(true);
    await connection.close();
  });

  it('refreshes its tools on tools/list_changed', async () => {
    let changes = 0;
    const connection = new McpConnection('fault', faultServer(), {
      clientInfo: { name: 'gemini-cli-mcp-client', version: 'test' },
      env: process.env,
      redaction: {},
      cwd: process.cwd(),
      maxMessageBytes: 1 << 20,
      killGraceMs: 1000,
      roots: () => [],
      logger: silentLogger,
      onChange: () => changes++,
      onWarning: () => {},
    });
    await connection.start();
    const before = changes;
    await connection.callTool('grow', {}, { signal: signal() });
    expect(
      await eventually(() => connection.tools.some((t) => t.definition.name === 'grown_1')),
    ).toBe(true);
    expect(changes).toBeGreaterThan(before);
    await connection.close();
  });
});
