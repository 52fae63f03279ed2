/**
 * Session files: gemini-agent writes gemini-cli's record shapes (a model message's content is its visible text,
 * `toolCalls[].result` holds the response parts, gemini's display fields), so gemini resumes a session written by
 * gemini-agent exactly as one it wrote itself. Checked against gemini 0.61's recorded session-resume scenario, and,
 * when the gemini binary is installed (/work/ref/gemini, or GEMINI_BIN), by resuming our file with it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FakeGeminiServer } from '../../src/testing/index.js';
import { ensureBuilt } from '../cli/helpers/built-cli.js';
import { runCli } from '../cli/helpers/run-cli.js';
import {
  buildTurns,
  layOut,
  normalise,
  readSessions,
  scenarioEnv,
  type RunOutput,
} from './reference.js';
import { recorded, runOurs } from './run-ours.js';

const GEMINI = process.env['GEMINI_BIN'] ?? '/work/ref/gemini/node_modules/.bin/gemini';

beforeAll(async () => {
  await ensureBuilt();
});

type Json = Record<string, unknown>;

/** A record with the values that differ between runs (ids, hashes, call-id clocks) replaced by placeholders. */
function comparable(record: unknown): unknown {
  const text = JSON.stringify(record)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/"projectHash":"[0-9a-f]{64}"/g, '"projectHash":"<hash>"')
    .replace(/([a-z_]+)_\d{10,}_(\d+)/g, '$1_<ms>_$2');
  return JSON.parse(text, (key, value: unknown) =>
    key === 'sdkFormat' || key === 'sdkParts' || key === 'sdkApproval' ? undefined : value,
  ) as unknown;
}

/** The message records of a session file (the lines with an `id`), upserts included, in file order. */
function messageLines(lines: unknown[]): Json[] {
  return lines.filter((l): l is Json => typeof (l as Json)['id'] === 'string');
}

interface MixedRun {
  first: RunOutput;
  resumed: RunOutput;
  requests: Array<{ method: string; model: string; body: unknown }>;
  sessions: Record<string, unknown[]>;
}

/** The session-resume scenario with its first run by gemini-agent, and the resume by `resumeWith`. */
async function writeWithOursResumeWith(resumeWith: 'ours' | 'gemini'): Promise<MixedRun> {
  const { scenario } = recorded('session-resume');
  const root = await realpath(await mkdtemp(join(tmpdir(), 'gemini-agent-session-parity-')));
  const server = new FakeGeminiServer({ turns: buildTurns(scenario.turns ?? []) });
  try {
    const cwd = layOut(root, scenario);
    const url = await server.start();
    const env = scenarioEnv(root, url);
    const ours = async (args: string[]): Promise<RunOutput> => {
      const r = await runCli(args, { cwd, env });
      return { exitCode: r.code, stdout: r.stdout, stderr: r.stderr };
    };
    const first = await ours(scenario.args);
    const [resumeArgs] = scenario.then ?? [];
    const resumed =
      resumeWith === 'ours'
        ? await ours(resumeArgs ?? [])
        : await gemini(resumeArgs ?? [], cwd, env);
    return normalise(
      {
        first,
        resumed,
        requests: server.requests.map((r) => ({ method: r.method, model: r.model, body: r.body })),
        sessions: readSessions(join(root, 'home', '.gemini', 'tmp')),
      },
      root,
    );
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

function gemini(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RunOutput> {
  return new Promise((done, fail) => {
    const child = spawn(GEMINI, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', fail);
    child.once('close', (code) => done({ exitCode: code, stdout, stderr }));
  });
}

/** The chat requests (gemini's routing classifier calls are not chat turns). */
const chat = (requests: MixedRun['requests']) =>
  requests.filter((r) => r.method === 'generateContentStream');

describe('session records, as gemini 0.61 writes them', () => {
  it("a session gemini-agent writes has gemini's message records, field for field", async () => {
    const reference = recorded('session-resume');
    const ours = await writeWithOursResumeWith('ours');
    expect(ours.first.exitCode).toBe(0);
    const [want] = Object.values(reference.sessions);
    const [got] = Object.values(ours.sessions);
    // gemini's own first run: up to its final answer (before the resume appends).
    const wantMessages = messageLines(want ?? []).filter(
      (m) => m['id'] !== 'd04923d38bb0f6017037e74183378ef4',
    );
    const gotMessages = messageLines(got ?? []);
    const firstRun = (list: Json[]) =>
      list.slice(0, list.findIndex((m) => m['content'] === 'It says hello.') + 1);
    // prompt, model turn, the same turn with its toolCalls, the function responses, the answer
    expect(firstRun(wantMessages)).toHaveLength(5);
    expect(firstRun(gotMessages).map(comparable)).toEqual(firstRun(wantMessages).map(comparable));
    // Our extra fields stay in fields gemini ignores.
    const model = gotMessages.find((m) => m['type'] === 'gemini');
    const calls = gotMessages.flatMap((m) => (m['toolCalls'] as Json[] | undefined) ?? []);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls)
      expect(call['sdkApproval']).toMatchObject({ decision: 'allow', by: 'rule' });
    expect(model?.['sdkParts']).toEqual([
      { text: 'Reading.' },
      expect.objectContaining({ functionCall: expect.objectContaining({ name: 'read_file' }) }),
    ]);
  });

  it('gemini-agent resumes its own file with each call answered once', async () => {
    const ours = await writeWithOursResumeWith('ours');
    expect(ours.resumed.exitCode).toBe(0);
    const resumed = chat(ours.requests)[2]?.body as {
      contents: Array<{ role: string; parts: Json[] }>;
    };
    const responses = resumed.contents.flatMap((c) => c.parts.filter((p) => p['functionResponse']));
    expect(responses).toHaveLength(1);
    expect(resumed.contents.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
  });

  it.runIf(existsSync(GEMINI))(
    'gemini resumes a session gemini-agent wrote and sends the request it sends for its own',
    async () => {
      const reference = recorded('session-resume');
      const mixed = await writeWithOursResumeWith('gemini');
      expect(mixed.resumed.exitCode).toBe(0);
      expect(mixed.resumed.stdout).toBe(reference.later[0]?.stdout);
      const want = chat(reference.requests)[2]?.body as Json;
      const got = chat(mixed.requests)[2]?.body as Json;
      expect(comparable(got['contents'])).toEqual(comparable(want['contents']));
      expect(got['generationConfig']).toEqual(want['generationConfig']);
    },
    180_000,
  );
});

describe('write_todos, as gemini 0.61 records and prints it', () => {
  /** The finished call records (a model message's `toolCalls`) of a session, the last upsert of each call. */
  const callRecords = (lines: unknown[]): Json[] => {
    const byId = new Map<string, Json>();
    for (const m of messageLines(lines))
      for (const call of (m['toolCalls'] as Json[] | undefined) ?? [])
        byId.set(call['id'] as string, call);
    return [...byId.values()];
  };
  /** stream-json lines with the values that differ between runs dropped. */
  const streamLines = (stdout: string): Json[] =>
    stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Json)
      .filter((e) => e['type'] === 'tool_use' || e['type'] === 'tool_result')
      .map((e) => comparable(e) as Json);

  it('the call record stores the {todos} display; the tool_result has no output text', async () => {
    const reference = recorded('write-todos');
    const ours = await runOurs(reference.scenario);
    expect(ours.exitCode).toBe(0);
    const [want] = Object.values(reference.sessions);
    const [got] = Object.values(ours.sessions);
    const wantCalls = callRecords(want ?? []);
    expect(wantCalls).toHaveLength(1);
    expect(wantCalls[0]?.['resultDisplay']).toEqual({
      todos: [
        { description: 'Read the code', status: 'completed' },
        { description: 'Write the fix', status: 'in_progress' },
        { description: 'Run the tests', status: 'pending' },
      ],
    });
    expect(callRecords(got ?? []).map(comparable)).toEqual(wantCalls.map(comparable));
    expect(streamLines(ours.stdout)).toEqual(streamLines(reference.stdout));
    expect(streamLines(reference.stdout)[1]).not.toHaveProperty('output');
  });
});
