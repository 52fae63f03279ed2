#!/usr/bin/env node
/**
 * P9 diagnostic (bench/analysis.md): where the first answer's time goes with stdio MCP servers. For each server
 * alone and for all three, in one warm process (a first-answer run of each case before the measured ones, as the
 * P9 child warms up), prints per run: the first answer's wall, each server process's CPU (utime + stime from
 * /proc/<pid>/stat, read just before the agent closes them) and this client's CPU between `sendStream` and the
 * first answer. Linux only (/proc). Run it under `taskset -c 0` to see the three start-ups add up on one core.
 *
 *   node bench/p9-startup-cpu.mjs [runs=3]        (after npm run build)
 */
import process from 'node:process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GeminiCliAgent } from 'gemini-agent-sdk';
import { ScriptedModel, textTurn } from 'gemini-agent-sdk/testing';
import { p9Servers } from './lib/mcp-servers.mjs';

const runs = Number(process.argv[2] ?? 3);
const cwd = mkdtempSync(join(tmpdir(), 'p9-cpu-'));
const SERVERS = p9Servers(cwd);
const TICK_MS = 10; // USER_HZ 100

/** CPU (ms) of each live child process of this one. */
function childrenCpuMs() {
  const out = [];
  for (const task of readdirSync('/proc/self/task')) {
    const ids = readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(/\s+/);
    for (const id of ids.filter(Boolean)) {
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push((Number(fields[11]) + Number(fields[12])) * TICK_MS);
    }
  }
  return out;
}

async function firstAnswer(servers) {
  const agent = new GeminiCliAgent({
    cwd,
    contentGenerator: new ScriptedModel([textTurn('hi')]),
    builtinTools: false,
    settings: false,
    trustWorkspace: true,
    retry: false,
    persist: false,
    mcpServers: servers,
  });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let firstMs;
  let clientMs;
  for await (const e of agent.session().sendStream('hello')) {
    if (e.type === 'content' && firstMs === undefined) {
      firstMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      clientMs = (cpu.user + cpu.system) / 1000;
    }
  }
  const serversMs = childrenCpuMs();
  const status = await agent.mcp.status();
  await agent.close();
  const down = status.filter((s) => s.state !== 'connected');
  if (down.length > 0) throw new Error(`not connected: ${down.map((s) => s.name).join(', ')}`);
  return { firstMs, serversMs, clientMs };
}

const cases = [...Object.keys(SERVERS).map((name) => [name]), Object.keys(SERVERS)];
const pick = (names) => Object.fromEntries(names.map((n) => [n, SERVERS[n]]));
for (const names of cases) await firstAnswer(pick(names)); // warm-up
for (let r = 0; r < runs; r++) {
  for (const names of cases) {
    const { firstMs, serversMs, clientMs } = await firstAnswer(pick(names));
    const sum = serversMs.reduce((a, b) => a + b, 0);
    process.stdout.write(
      `${names.join('+').padEnd(26)} first answer ${firstMs.toFixed(0).padStart(4)} ms  ` +
        `servers CPU ${serversMs.join(' + ')} = ${sum} ms  client CPU ${clientMs.toFixed(0)} ms\n`,
    );
  }
}
process.stdout.write(`load average ${readFileSync('/proc/loadavg', 'utf8').trim()}\n`);
rmSync(cwd, { recursive: true, force: true });
