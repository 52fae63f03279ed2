import type { Content } from '@google/genai';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GeminiCliAgent } from '../../src/index.js';
import { ScriptedModel, textTurn } from '../../src/testing/index.js';
import { expectValidContents } from './history-assertions.js';
import { replayLine, runChild, SDK_ENTRY, type ChildScript } from './sessions-child-process.js';

const children: ChildScript[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill('SIGKILL');
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('crash safety through the agent', () => {
  it('kill -9 while a tool runs: the parent resumes a valid history (calls answered as interrupted) and continues', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'gas-crash-')));
    dirs.push(dir);
    const replay = join(dir, 'replay.jsonl');
    await writeFile(
      replay,
      `${replayLine([
        { text: 'Running both.' },
        { functionCall: { id: 'q-1', name: 'quick', args: {} } },
        { functionCall: { id: 's-1', name: 'slow', args: {} } },
      ])}\n`,
    );
    const child = await runChild(
      dir,
      'crashing-agent',
      `
import { GeminiCliAgent, tool, z } from ${JSON.stringify(SDK_ENTRY)};
const agent = new GeminiCliAgent({
  cwd: ${JSON.stringify(dir)},
  fakeResponses: ${JSON.stringify(replay)},
  builtinTools: false,
  retry: false,
  tools: [
    tool({ name: 'quick', description: 'Returns at once', inputSchema: z.object({}) }, () => 'quick done'),
    tool({ name: 'slow', description: 'Never returns', inputSchema: z.object({}) }, () => {
      console.log('tool-started');
      setInterval(() => undefined, 1000);
      return new Promise(() => undefined);
    }),
  ],
});
for await (const _ of agent.session({ sessionId: 'crashed' }).sendStream('Run both tools.')) void _;
`,
    );
    children.push(child);
    await child.waitFor('tool-started');
    child.child.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');

    const model = new ScriptedModel([textTurn('Recovered.')]);
    const agent = new GeminiCliAgent({
      cwd: dir,
      contentGenerator: model,
      builtinTools: false,
      retry: false,
    });
    // The dead process's lock is taken over; the calls it never answered get interrupted errors.
    const session = await agent.resumeSession('crashed');
    const history = session.getHistory();
    expect(history.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(history[1]?.parts?.map((p) => p.functionCall?.name ?? p.text)).toEqual([
      'Running both.',
      'quick',
      'slow',
    ]);
    const responses = (history[2]?.parts ?? []).map((p) => p.functionResponse);
    expect(responses.map((r) => [r?.id, r?.name])).toEqual([
      ['quick__q-1', 'quick'],
      ['slow__s-1', 'slow'],
    ]);
    for (const r of responses) {
      expect(String(r?.response?.['error'])).toMatch(/^Tool call interrupted: the session stopped/);
    }
    expectValidContents(history);

    expect((await session.send('Where were we?')).text).toBe('Recovered.');
    const sent = model.generateRequests[0]?.contents as Content[];
    expectValidContents(sent);
    // On the wire the ids lose their '<name>__' prefix, as gemini-cli sends them.
    expect(sent[2]?.parts?.map((p) => p.functionResponse?.id)).toEqual(['q-1', 's-1']);
    expect(sent.at(-1)).toEqual({ role: 'user', parts: [{ text: 'Where were we?' }] });
    expect(session.getHistory()).toHaveLength(5);
    await session.close();

    // The repaired session is stored: a later resume starts from the same valid history.
    const later = await new GeminiCliAgent({ cwd: dir }).resumeSession('crashed');
    expect(later.getHistory()).toEqual(session.getHistory());
    const [summary] = await agent.listSessions();
    expect(summary).toMatchObject({ sessionId: 'crashed', firstPrompt: 'Run both tools.' });
    await later.close();
  });
});
