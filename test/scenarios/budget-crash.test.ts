import type { Content, GenerateContentResponse, Part } from '@google/genai';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeGeminiServer, type FakeGeminiTurn } from '../../src/testing/index.js';
import { ensureBuilt } from '../cli/helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from '../cli/helpers/run-cli.js';
import { expectValidContents } from './history-assertions.js';
import { DIST_ENTRY, runBuiltChild, type ChildScript } from './sessions-child-process.js';

/**
 * Crash safety of budget pauses and of turns killed mid-flight, across real processes running the built
 * package: a child pauses (or is busy), is killed with SIGKILL, and a new process — the SDK or the CLI —
 * continues from the session file against the same loopback Gemini server.
 */

function reply(parts: object[], input: number, output: number): GenerateContentResponse[] {
  return [
    {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }],
      usageMetadata: {
        promptTokenCount: input,
        candidatesTokenCount: output,
        totalTokenCount: input + output,
      },
    } as GenerateContentResponse,
  ];
}

const stepCall = reply([{ functionCall: { id: 'st-1', name: 'step', args: {} } }], 400, 20);
const done = reply([{ text: 'Done.' }], 600, 4);

let project: TempProject;
let server: FakeGeminiServer | undefined;
let env: NodeJS.ProcessEnv;
const children: ChildScript[] = [];

beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
});
afterEach(async () => {
  for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  await server?.close();
  server = undefined;
  await project.cleanup();
});

async function serve(...turns: FakeGeminiTurn[]): Promise<void> {
  server = new FakeGeminiServer({ turns });
  const url = await server.start();
  env = cleanEnv(project, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: url });
}

/** The agent every child builds: one `step` tool that logs each run to runs.txt and prints `tool-started`. */
function agentSource(budget: object, stepHangs: boolean): string {
  const runs = join(project.cwd, 'runs.txt');
  return `
import { appendFileSync } from 'node:fs';
import { GeminiCliAgent, tool, z } from ${JSON.stringify(DIST_ENTRY)};
const agent = new GeminiCliAgent({
  cwd: ${JSON.stringify(project.cwd)},
  builtinTools: false,
  retry: false,
  budget: ${JSON.stringify(budget)},
  tools: [
    tool({ name: 'step', description: 'One step', inputSchema: z.object({}) }, () => {
      appendFileSync(${JSON.stringify(runs)}, 'ran\\n');
      console.log('tool-started');
      ${stepHangs ? 'setInterval(() => undefined, 1000); return new Promise(() => undefined);' : "return 'stepped';"}
    }),
  ],
});
const print = (label, value) => console.log(label + ' ' + JSON.stringify(value));
`;
}

/** Starts a child that sends `prompt` on session `id`; it prints `event <type>` lines and never exits. */
async function startTurn(
  id: string,
  budget: object,
  options: { stepHangs?: boolean } = {},
): Promise<ChildScript> {
  const child = await runBuiltChild(
    project.cwd,
    `turn-${id}`,
    `${agentSource(budget, options.stepHangs ?? false)}
const session = agent.session({ sessionId: ${JSON.stringify(id)} });
for await (const event of session.sendStream('Take a step.')) {
  console.log('event ' + event.type);
  if (event.type === 'budget_exceeded') print('budget', session.budget);
}
console.log('stream-ended');
// Still alive and holding the session (no close()): only SIGKILL ends this process.
setInterval(() => undefined, 1000);
`,
    env,
  );
  children.push(child);
  return child;
}

async function kill(child: ChildScript): Promise<void> {
  child.child.kill('SIGKILL');
  expect((await child.exited).signal).toBe('SIGKILL');
}

/** Runs a new child on session `id` doing `body`, which ends by printing lines; returns them once it exits 0. */
async function resumeInChild(id: string, budget: object, body: string): Promise<string[]> {
  const child = await runBuiltChild(
    project.cwd,
    `resume-${id}-${children.length}`,
    `${agentSource(budget, false)}
const session = await agent.resumeSession(${JSON.stringify(id)});
await session.initialize();
${body}
await session.close();
`,
    env,
  );
  children.push(child);
  const exit = await child.exited;
  expect(exit, child.stderr()).toEqual({ code: 0, signal: null });
  return child.lines();
}

function printed<T>(lines: readonly string[], label: string): T {
  const line = lines.find((l) => l.startsWith(`${label} `));
  if (line === undefined) throw new Error(`no "${label}" line in: ${lines.join('\n')}`);
  return JSON.parse(line.slice(label.length + 1)) as T;
}

/** Runs `gemini-agent …args -o json` in the project; expects exit 0 and a clean stderr; returns the response. */
async function cliResponse(args: readonly string[]): Promise<string> {
  const result = await runCli([...args, '-o', 'json'], { cwd: project.cwd, env });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { response: string }).response;
}

async function runCount(): Promise<number> {
  const text = await readFile(join(project.cwd, 'runs.txt'), 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l !== '').length;
}

/** The session file's records (gemini-cli's JSONL: a header line, then one record per message or `$set`). */
async function sessionRecords(id: string): Promise<Array<Record<string, unknown>>> {
  const tmp = join(project.home, '.gemini', 'tmp');
  for (const slug of await readdir(tmp)) {
    const chats = join(tmp, slug, 'chats');
    for (const name of await readdir(chats).catch(() => [])) {
      if (!name.endsWith('.jsonl')) continue;
      const lines = (await readFile(join(chats, name), 'utf8')).split('\n').filter((l) => l !== '');
      if (!lines[0]?.includes(`"sessionId":"${id}"`)) continue;
      return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    }
  }
  throw new Error(`no session file for ${id} under ${tmp}`);
}

/** The message records as the history a resume replays: the last record of each id wins, in first-seen order. */
function messages(records: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
  const byId = new Map<string, Record<string, unknown>>();
  for (const r of records) {
    if (typeof r['id'] === 'string' && typeof r['type'] === 'string') byId.set(r['id'], r);
  }
  return [...byId.values()];
}

/** The contents the model received in request `i`. */
function sent(i: number): Content[] {
  const body = server?.requests[i]?.body as { contents?: Content[] } | undefined;
  const contents = body?.contents ?? [];
  expectValidContents(contents);
  return contents;
}

/** One line per turn (the `<session_context>` part the SDK sends first left out). */
function shape(contents: readonly Content[]): string[] {
  const context = (p: Part) => p.text?.startsWith('<session_context>') === true;
  return contents.map(
    (c) =>
      `${c.role}: ${(c.parts ?? [])
        .filter((p) => !context(p))
        .map((p) =>
          p.functionCall
            ? `call ${p.functionCall.name}`
            : p.functionResponse
              ? `response ${p.functionResponse.name}`
              : (p.text ?? '?'),
        )
        .join(' | ')}`,
  );
}

const pausedTurn = ['user: Take a step.', 'model: call step', 'user: response step'];

describe('budget pause → SIGKILL → resume in a new process', () => {
  it('the SDK (extendBudget + resumeTurn) continues exactly where the turn stopped', async () => {
    await serve(stepCall, done);
    const first = await startTurn('bk-sdk', { maxTotalTokens: 450 });
    await first.waitFor('stream-ended');
    expect(first.lines().filter((l) => l.startsWith('event '))).toContain('event budget_exceeded');
    expect(printed<{ paused: { reason: string } }>(first.lines(), 'budget').paused.reason).toBe(
      'total_tokens',
    );
    await kill(first);
    expect(server?.requests).toHaveLength(1);
    expect(await runCount()).toBe(1);
    const before = messages(await sessionRecords('bk-sdk'));

    const lines = await resumeInChild(
      'bk-sdk',
      { maxTotalTokens: 450 },
      `
print('paused', session.budget.paused);
print('history-before', session.getHistory());
await session.extendBudget({ maxTotalTokens: 5000 });
const events = [];
for await (const event of session.resumeTurn()) events.push(event);
print('content', events.filter((e) => e.type === 'content').map((e) => e.value).join(''));
print('types', [...new Set(events.map((e) => e.type))]);
print('budget', session.budget);
print('history', session.getHistory());
`,
    );
    expect(printed<{ reason: string }>(lines, 'paused').reason).toBe('total_tokens');
    expect(shape(printed<Content[]>(lines, 'history-before'))).toEqual(pausedTurn);
    expect(printed(lines, 'content')).toBe('Done.');
    expect(printed<string[]>(lines, 'types')).not.toContain('budget_exceeded');
    // The model got the tool result it had not seen — once, with no new prompt — and the tool did not run again.
    expect(server?.requests).toHaveLength(2);
    expect(shape(sent(1))).toEqual(pausedTurn);
    expect(await runCount()).toBe(1);
    const budget = printed<{ limits: object; spent: object; paused?: object }>(lines, 'budget');
    expect(budget.paused).toBeUndefined();
    expect(budget.limits).toEqual({ maxTotalTokens: 5450 });
    expect(budget.spent).toMatchObject({ inputTokens: 1000, outputTokens: 24, modelCalls: 2 });
    const history = printed<Content[]>(lines, 'history');
    expectValidContents(history);
    expect(shape(history)).toEqual([...pausedTurn, 'model: Done.']);

    // The file holds each message once: what the paused process wrote, plus the one new answer.
    const after = messages(await sessionRecords('bk-sdk'));
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((r) => [r['type'], r['content']])).toEqual([
      ['gemini', 'Done.'],
    ]);
    expect(new Set(after.map((r) => r['id'])).size).toBe(after.length);
    server?.assertComplete();
  });

  it('the CLI (gemini-agent -r <id> with a higher --max-tokens and no prompt) continues it', async () => {
    await serve(stepCall, done);
    const first = await startTurn('bk-cli', { maxTotalTokens: 450 });
    await first.waitFor('event budget_exceeded');
    await kill(first);
    expect(await runCount()).toBe(1);

    expect(await cliResponse(['-r', 'bk-cli', '--max-tokens', '5000'])).toBe('Done.');
    expect(server?.requests).toHaveLength(2);
    expect(shape(sent(1))).toEqual(pausedTurn);
    expect(await runCount()).toBe(1);

    // A later process sees one valid history, no longer paused.
    const lines = await resumeInChild(
      'bk-cli',
      {},
      `print('paused', session.budget?.paused ?? null);
print('history', session.getHistory());`,
    );
    expect(printed(lines, 'paused')).toBeNull();
    const history = printed<Content[]>(lines, 'history');
    expectValidContents(history);
    expect(shape(history)).toEqual([...pausedTurn, 'model: Done.']);
  });
});

describe('SIGKILL mid-turn with a budget: the resume has a valid history', () => {
  it('killed while a tool runs: the call is answered as interrupted, the spending kept, and the next prompt is valid', async () => {
    await serve(stepCall, done);
    const first = await startTurn('mid-tool', { maxTotalTokens: 100_000 }, { stepHangs: true });
    await first.waitFor('tool-started');
    await kill(first);

    const lines = await resumeInChild(
      'mid-tool',
      { maxTotalTokens: 100_000 },
      `
print('history-before', session.getHistory());
print('spent-before', session.budget.spent);
const resumeTurn = await (async () => { try { for await (const _ of session.resumeTurn()) void _; return 'ran'; } catch (e) { return e.name; } })();
print('resumeTurn', resumeTurn);
const events = [];
for await (const event of session.sendStream('Again.')) events.push(event);
print('content', events.filter((e) => e.type === 'content').map((e) => e.value).join(''));
print('budget', session.budget);
print('history', session.getHistory());
`,
    );
    const before = printed<Content[]>(lines, 'history-before');
    expectValidContents(before);
    expect(shape(before)).toEqual(pausedTurn);
    const answer = before[2]?.parts?.[0]?.functionResponse?.response;
    expect(String(answer?.['error'])).toMatch(/^Tool call interrupted/);
    // The model call that finished before the kill is counted.
    expect(printed(lines, 'spent-before')).toMatchObject({
      inputTokens: 400,
      outputTokens: 20,
      modelCalls: 1,
    });
    // Nothing was paused, so there is no turn to resume.
    expect(printed(lines, 'resumeTurn')).toBe('ConfigurationError');
    expect(printed(lines, 'content')).toBe('Done.');
    // The interrupted answer is the call's response; the new prompt gets gemini-cli's placeholder turn before it.
    expect(shape(sent(1))).toEqual([
      ...pausedTurn,
      'model: [The previous response was interrupted before it completed.]',
      'user: Again.',
    ]);
    expect(printed(lines, 'budget')).toMatchObject({ spent: { inputTokens: 1000, modelCalls: 2 } });
    expect(shape(printed<Content[]>(lines, 'history'))).toEqual([
      ...pausedTurn,
      'user: Again.',
      'model: Done.',
    ]);
    expect(await runCount()).toBe(1);
  });

  it('killed while the model streams: the partial answer leaves a valid history, and the CLI continues it', async () => {
    await serve(
      {
        chunks: [
          ...reply([{ text: 'Thinking about ' }], 300, 3),
          ...reply([{ text: 'it.' }], 300, 5),
        ],
        chunkDelayMs: 1500,
      },
      done,
    );
    const first = await startTurn('mid-stream', { maxTotalTokens: 100_000 });
    await first.waitFor('event content');
    await kill(first);
    expect(server?.requests).toHaveLength(1);

    expect(await cliResponse(['-r', 'mid-stream', '-p', 'Again.'])).toBe('Done.');
    const contents = sent(1);
    // The killed stream left no half answer: a placeholder model turn keeps the roles alternating.
    expect(shape(contents)).toEqual([
      'user: Take a step.',
      'model: [The previous response was interrupted before it completed.]',
      'user: Again.',
    ]);
    expect(contents.at(-1)?.parts?.some((p) => p.text === 'Again.')).toBe(true);

    // Stored as gemini-cli stores it — the prompt whose answer never came, then the next one — and a later
    // request built from it is valid again.
    const lines = await resumeInChild('mid-stream', {}, `print('history', session.getHistory());`);
    expect(shape(printed<Content[]>(lines, 'history'))).toEqual([
      'user: Take a step.',
      'user: Again.',
      'model: Done.',
    ]);
    // Four built-package processes and a 1.5 s chunk delay: over the default 30 s on a loaded machine (CI did).
  }, 90_000);
});
