/**
 * P9 client: MCP costs, against real stdio servers (ScriptedModel, no network).
 *  - per call: one session making `calls` sequential calls of an echo tool — a native `tool()` vs the same echo
 *    served by an MCP stdio server (test/mcp/servers/fault-server.mjs, trusted) — wall per call;
 *  - start-up: time from `sendStream` on a fresh agent to its first answer, with no server, with each of three
 *    servers alone (server-everything, server-filesystem, the fault server) and with all three together.
 * argv: runs calls
 */
import process from 'node:process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GeminiCliAgent, tool, z } from 'gemini-agent-sdk';
import { ScriptedModel, callTurn, textTurn } from 'gemini-agent-sdk/testing';
import { p9Servers } from '../lib/mcp-servers.mjs';

const [runsArg, callsArg] = process.argv.slice(2);
const runs = Number(runsArg);
const calls = Number(callsArg);
const cwd = mkdtempSync(join(tmpdir(), 'h8-p9-'));
const SERVERS = p9Servers(cwd);

function agentWith(model, extra) {
  return new GeminiCliAgent({
    cwd,
    contentGenerator: model,
    builtinTools: false,
    settings: false,
    trustWorkspace: true,
    retry: false,
    persist: false,
    ...extra,
  });
}

/** Wall per call of `calls` sequential calls of `name`. */
async function perCall(name, extra) {
  const turns = Array.from({ length: calls }, (_, i) =>
    callTurn({ name, args: { text: `call ${i}` } }),
  );
  const model = new ScriptedModel([...turns, textTurn('done')]);
  const agent = agentWith(model, extra);
  const session = agent.session();
  await session.initialize();
  const t0 = performance.now();
  let ok = 0;
  for await (const e of session.sendStream('echo away')) {
    if (e.type === 'tool_call_response' && e.value.error === undefined) ok++;
  }
  const wallMs = performance.now() - t0;
  await agent.close();
  if (ok !== calls) throw new Error(`${name}: ${ok} of ${calls} calls succeeded`);
  return wallMs / calls;
}

/** Time from `sendStream` on a fresh agent to its first content event. */
async function firstAnswer(servers) {
  const agent = agentWith(new ScriptedModel([textTurn('hi')]), { mcpServers: servers });
  const t0 = performance.now();
  let first;
  for await (const e of agent.session().sendStream('hello')) {
    if (e.type === 'content' && first === undefined) first = performance.now() - t0;
  }
  const status = await agent.mcp.status();
  await agent.close();
  const down = status.filter((s) => s.state !== 'connected');
  if (down.length > 0)
    throw new Error(`not connected: ${down.map((s) => `${s.name} (${s.reason})`)}`);
  return first;
}

const echo = tool(
  { name: 'echo', description: 'Echoes.', inputSchema: z.object({ text: z.string() }) },
  async ({ text }) => `echo: ${text}`,
);
const out = { native: [], mcp: [], startup: { none: [], all: [] } };
for (const name of Object.keys(SERVERS)) out.startup[name] = [];
// Warm-up (module loading, the OS's file cache for the servers).
await perCall('echo', { tools: [echo] });
await perCall('mcp_fault_echo', { mcpServers: { fault: SERVERS.fault } });
await firstAnswer(SERVERS);
for (let i = 0; i < runs; i++) {
  out.native.push(await perCall('echo', { tools: [echo] }));
  out.mcp.push(await perCall('mcp_fault_echo', { mcpServers: { fault: SERVERS.fault } }));
  out.startup.none.push(await firstAnswer({}));
  for (const [name, config] of Object.entries(SERVERS)) {
    out.startup[name].push(await firstAnswer({ [name]: config }));
  }
  out.startup.all.push(await firstAnswer(SERVERS));
}
process.stdout.write(`${JSON.stringify(out)}\n`);
