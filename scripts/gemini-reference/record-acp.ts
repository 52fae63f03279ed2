/**
 * Records what the reference `gemini --acp` (0.61) does in two ACP cases, offline, into
 * test/fixtures/gemini-0.61/acp-reference.json:
 *
 * - `load`: the `session/update`s of a `session/load` of the `write-todos` parity scenario's session (created first
 *   by `gemini -p … --yolo`), to see whether a stored `write_todos` list becomes a `plan` update.
 * - `askUser`: a `session/prompt` under which the model calls `ask_user`: the function names gemini declares to
 *   the model in ACP mode, whether it asks the client (`session/request_permission`), the updates it sends and the
 *   `functionResponse` the model gets back.
 *
 * Run: `npx tsx scripts/gemini-reference/record-acp.ts`. GEMINI_BIN overrides the binary.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { FakeGeminiServer } from '../../src/testing/index.js';
import {
  buildTurns,
  layOut,
  normalise,
  readSessions,
  scenarioEnv,
  type Scenario,
} from '../../test/parity/reference.js';
import { SCENARIOS } from '../../test/parity/scenarios.js';

const GEMINI = process.env['GEMINI_BIN'] ?? '/work/ref/gemini/node_modules/.bin/gemini';
const OUT = join(import.meta.dirname, '../../test/fixtures/gemini-0.61/acp-reference.json');

/** The question the model asks in the `askUser` case. */
export const ASK_USER_ARGS = {
  questions: [{ question: 'Which colour?', header: 'Colour', type: 'text' }],
};

interface AcpRun {
  updates: acp.SessionUpdate[];
  permissionRequests: acp.RequestPermissionRequest[];
}

function runHeadless(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(GEMINI, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`gemini exited ${code}`)),
    );
  });
}

/** Starts `gemini --acp`, initializes, runs `body`, and stops the child. */
async function withAcp(
  cwd: string,
  env: NodeJS.ProcessEnv,
  body: (agent: acp.ClientContext) => Promise<void>,
): Promise<AcpRun> {
  const child = spawn(GEMINI, ['--acp', '-m', 'gemini-2.5-pro'], {
    cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const run: AcpRun = { updates: [], permissionRequests: [] };
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      child.stdout.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)));
      child.stdout.on('end', () => controller.close());
    },
  });
  const writable = new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise((resolve, reject) =>
        child.stdin.write(chunk, (e) => (e ? reject(e) : resolve())),
      ),
  });
  const connection = acp
    .client({ name: 'record-acp' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      run.updates.push(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      run.permissionRequests.push(params);
      const allow = params.options.find((o) => o.kind === 'allow_once');
      return allow === undefined
        ? { outcome: { outcome: 'cancelled' } }
        : { outcome: { outcome: 'selected', optionId: allow.optionId } };
    })
    .connect(acp.ndJsonStream(writable, readable));
  try {
    await connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    await connection.agent.request(acp.methods.agent.authenticate, { methodId: 'gemini-api-key' });
    await body(connection.agent);
  } finally {
    child.stdin.end();
    child.kill('SIGTERM');
  }
  return run;
}

/** The updates (or the error) of a `session/load` of `sessionId` in a new `gemini --acp` process. */
async function load(sessionId: string, cwd: string, env: NodeJS.ProcessEnv): Promise<unknown> {
  let error: unknown;
  const run = await withAcp(cwd, env, async (agent) => {
    try {
      await agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });
      await new Promise((resolve) => setTimeout(resolve, 1000)); // gemini does not await its replay
    } catch (e) {
      error = e instanceof acp.RequestError ? { code: e.code, data: e.data } : String(e);
    }
  });
  return { ...(error === undefined ? {} : { error }), ...run };
}

/**
 * The `write-todos` scenario's session, made twice: by headless gemini (`-p … --yolo`) and by `gemini --acp`
 * (`session/new` + `session/prompt`, the call allowed), each loaded by a new `gemini --acp`.
 */
async function recordLoad(): Promise<unknown> {
  const scenario = SCENARIOS.find((s) => s.name === 'write-todos') as Scenario;
  const root = mkdtempSync(join(tmpdir(), 'gemini-acp-'));
  try {
    const cwd = layOut(root, scenario);
    const turns = scenario.turns ?? [];
    const server = new FakeGeminiServer({ turns: buildTurns([...turns, ...turns]) });
    const env = scenarioEnv(root, await server.start());
    const first = (await runHeadless(scenario.args, cwd, env)).split('\n')[0] ?? '{}';
    const headlessId = (JSON.parse(first) as { session_id: string }).session_id;
    const headless = await load(headlessId, cwd, env);
    let acpId = '';
    const created = await withAcp(cwd, env, async (agent) => {
      acpId = (await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }))
        .sessionId;
      await agent.request(acp.methods.agent.session.prompt, {
        sessionId: acpId,
        prompt: [{ type: 'text', text: 'plan it' }],
      });
    });
    const loaded = await load(acpId, cwd, env);
    await server.close();
    return normalise(
      {
        headless,
        acp: { promptUpdates: created.updates, load: loaded },
        sessionFiles: readSessions(join(root, 'home', '.gemini', 'tmp')),
      },
      root,
    );
  } finally {
    if (process.env['KEEP']) console.error('kept', root);
    else rmSync(root, { recursive: true, force: true });
  }
}

async function recordAskUser(): Promise<unknown> {
  const scenario = SCENARIOS.find((s) => s.name === 'write-todos') as Scenario;
  const root = mkdtempSync(join(tmpdir(), 'gemini-acp-'));
  try {
    const cwd = layOut(root, scenario);
    const server = new FakeGeminiServer({
      turns: buildTurns([
        { calls: [{ name: 'ask_user', args: ASK_USER_ARGS }] },
        { text: 'Done.' },
      ]),
    });
    const env = scenarioEnv(root, await server.start());
    let stopReason: string | undefined;
    const run = await withAcp(cwd, env, async (agent) => {
      const { sessionId } = await agent.request(acp.methods.agent.session.new, {
        cwd,
        mcpServers: [],
      });
      const done = await agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'ask me' }],
      });
      stopReason = done.stopReason;
    });
    await server.close();
    const chats = server.requests.filter((r) => r.method === 'generateContentStream');
    const declared = (
      chats[0]?.body as { tools?: Array<{ functionDeclarations?: Array<{ name: string }> }> }
    ).tools
      ?.flatMap((t) => t.functionDeclarations ?? [])
      .map((d) => d.name)
      .sort();
    const last = chats.at(-1)?.body as { contents?: Array<{ parts?: unknown[] }> };
    const answer = last.contents?.at(-1)?.parts;
    return normalise(
      { declaredFunctions: declared, modelRequests: chats.length, answer, stopReason, ...run },
      root,
    );
  } finally {
    if (process.env['KEEP']) console.error('kept', root);
    else rmSync(root, { recursive: true, force: true });
  }
}

const recording = { gemini: '0.61.0', load: await recordLoad(), askUser: await recordAskUser() };
writeFileSync(OUT, `${JSON.stringify(recording, null, 2)}\n`);
console.log(`wrote ${OUT}`);
