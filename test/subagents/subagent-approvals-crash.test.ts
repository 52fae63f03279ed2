import type { Content } from '@google/genai';
import { appendFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GeminiCliAgent, subagent, tool, z } from '../../src/index.js';
import { ScriptedModel, textTurn } from '../../src/testing/index.js';
import { expectValidContents } from '../scenarios/history-assertions.js';
import {
  replayLine,
  runChild,
  SDK_ENTRY,
  type ChildScript,
} from '../scenarios/sessions-child-process.js';

const children: ChildScript[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** The agent of every process: subagent `worker` may call `risky`, which asks; approvals pause. */
const AGENT = (dir: string, replay: string, runs: string, hang: boolean) => `
import { appendFileSync } from 'node:fs';
import { GeminiCliAgent, subagent, tool, z } from ${JSON.stringify(SDK_ENTRY)};
export const agent = new GeminiCliAgent({
  cwd: ${JSON.stringify(dir)},
  fakeResponses: ${JSON.stringify(replay)},
  builtinTools: false,
  retry: false,
  approvals: 'pause',
  policy: { rules: [{ toolName: 'risky', decision: 'ask_user' }] },
  subagents: [subagent({ name: 'worker', description: 'd', instructions: 'Work.', tools: ['risky'] })],
  tools: [
    tool({ name: 'risky', description: 'Changes things', inputSchema: z.object({}) }, () => {
      appendFileSync(${JSON.stringify(runs)}, 'ran\\n');
      console.log('tool-started');
      ${hang ? 'setInterval(() => undefined, 1000); return new Promise(() => undefined);' : "return 'changed';"}
    }),
  ],
});
`;

describe("a subagent's held call across processes", () => {
  it('kill -9 while the continued run works: the parent call is answered as interrupted, nothing runs twice', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'gas-subagent-crash-')));
    dirs.push(dir);
    const replay = join(dir, 'replay.jsonl');
    const runs = join(dir, 'runs.txt');
    await writeFile(
      replay,
      `${replayLine([
        {
          functionCall: {
            id: 'i-1',
            name: 'invoke_agent',
            args: { agent_name: 'worker', prompt: 'change it' },
          },
        },
      ])}\n${replayLine([{ functionCall: { id: 'r-1', name: 'risky', args: {} } }])}\n`,
    );
    const pause = await runChild(
      dir,
      'pause',
      `${AGENT(dir, replay, runs, false)}
const session = agent.session({ sessionId: 'held' });
for await (const event of session.sendStream('go')) {
  if (event.type === 'approval_required') console.log('paused ' + event.value.pending[0].subagent);
}`,
    );
    children.push(pause);
    await pause.waitFor('paused worker');
    expect((await pause.exited).code).toBe(0);

    const resolver = await runChild(
      dir,
      'resolve',
      `${AGENT(dir, replay, runs, true)}
const session = await agent.resumeSession('held');
const [pending] = session.pendingApprovals;
for await (const _ of session.resolveApprovals([{ callId: pending.callId, decision: 'allow' }])) void _;`,
    );
    children.push(resolver);
    await resolver.waitFor('tool-started');
    resolver.child.kill('SIGKILL');
    await resolver.exited;
    expect((await readFile(runs, 'utf8')).split('\n').filter(Boolean)).toHaveLength(1);

    const model = new ScriptedModel([textTurn('It may have changed.')]);
    await using agent = new GeminiCliAgent({
      cwd: dir,
      contentGenerator: model,
      builtinTools: false,
      approvals: 'pause',
      subagents: [subagent({ name: 'worker', description: 'd', instructions: 'Work.' })],
      tools: [
        tool({ name: 'risky', description: 'Changes', inputSchema: z.object({}) }, () => {
          appendFileSync(runs, 'ran again\n');
          return 'changed';
        }),
      ],
    });
    const session = await agent.resumeSession('held');
    expect(session.pendingApprovals).toEqual([]);
    expect((await session.send('Did it work?')).text).toBe('It may have changed.');
    const contents = model.generateRequests[0]?.contents as Content[];
    expectValidContents(contents);
    const answer = contents
      .flatMap((c) => c.parts ?? [])
      .find((p) => p.functionResponse?.name === 'invoke_agent')?.functionResponse?.response;
    expect(String(answer?.['error'])).toMatch(/^Tool call interrupted/);
    expect((await readFile(runs, 'utf8')).split('\n').filter(Boolean)).toEqual(['ran']);
  });
});
