import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessCli } from './helpers/in-process-cli.js';
import { parseStreamJson } from './helpers/stream-json-schema.js';

const cli = inProcessCli;

const usage = (prompt: number, out: number) => ({
  promptTokenCount: prompt,
  candidatesTokenCount: out,
  totalTokenCount: prompt + out,
});
const line = (parts: unknown[], tokens: ReturnType<typeof usage>) =>
  JSON.stringify({
    method: 'generateContentStream',
    response: [
      {
        candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }],
        usageMetadata: tokens,
      },
    ],
  });

/** A project whose trusted .gemini/agents holds a reader agent, and a replay: delegate, read, complete, answer. */
function setup(): { cwd: string; replay: string } {
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'subagent-cli-')));
  mkdirSync(join(cwd, '.gemini', 'agents'), { recursive: true });
  writeFileSync(
    join(cwd, '.gemini', 'agents', 'reader.md'),
    '---\nname: reader\ndescription: Reads files.\ntools: [read_file]\nmodel: gemini-2.5-flash\n---\nRead what you are told.',
  );
  writeFileSync(join(cwd, 'notes.txt'), 'the notes\n');
  const replay = join(cwd, 'replay.jsonl');
  writeFileSync(
    replay,
    [
      line(
        [
          {
            functionCall: {
              id: 'parent-1',
              name: 'invoke_agent',
              args: { agent_name: 'reader', prompt: 'Read notes.txt' },
            },
          },
        ],
        usage(100, 10),
      ),
      line(
        [{ functionCall: { id: 'inner-1', name: 'read_file', args: { file_path: 'notes.txt' } } }],
        usage(40, 5),
      ),
      line(
        [
          {
            functionCall: {
              id: 'inner-2',
              name: 'complete_task',
              args: { result: 'It says: the notes' },
            },
          },
        ],
        usage(60, 7),
      ),
      line([{ text: 'The notes say "the notes".' }], usage(150, 9)),
    ].join('\n') + '\n',
  );
  return { cwd, replay };
}

describe('subagents in the headless CLI', () => {
  it("stream-json: the subagent's calls are tool_use / tool_result lines with parent_tool_id and agent_name", async () => {
    const { cwd, replay } = setup();
    const run = await cli(
      [
        '-p',
        'What do the notes say?',
        '--fake-responses',
        replay,
        '-o',
        'stream-json',
        '--skip-trust',
      ],
      cwd,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = parseStreamJson(run.stdout);
    const tools = lines
      .filter((l) => l.type === 'tool_use' || l.type === 'tool_result')
      .map((l) => [
        l.type,
        l.tool_id.replace(/^.*__/, ''),
        (l as { parent_tool_id?: string }).parent_tool_id?.replace(/^.*__/, ''),
      ]);
    expect(tools).toEqual([
      ['tool_use', 'parent-1', undefined],
      ['tool_use', 'inner-1', 'parent-1'],
      ['tool_result', 'inner-1', 'parent-1'],
      ['tool_use', 'inner-2', 'parent-1'],
      ['tool_result', 'inner-2', 'parent-1'],
      ['tool_result', 'parent-1', undefined],
    ]);
    const innerUse = lines.find((l) => l.type === 'tool_use' && l.tool_id.endsWith('inner-1'));
    expect(innerUse).toMatchObject({
      tool_name: 'read_file',
      parameters: { file_path: 'notes.txt' },
      agent_name: 'reader',
    });
    const parentResult = lines.find(
      (l) => l.type === 'tool_result' && l.tool_id.endsWith('parent-1'),
    );
    expect(parentResult).toMatchObject({ status: 'success' });
    expect((parentResult as { output?: string }).output).toContain(
      "Subagent 'reader' finished.\nTermination Reason: GOAL\nResult:\nIt says: the notes",
    );
    const result = lines.at(-1) as { type: string; stats: Record<string, unknown> };
    // gemini-cli counts the subagent's requests and tool calls in the run's statistics.
    expect(result.stats).toMatchObject({
      total_tokens: 110 + 45 + 67 + 159,
      tool_calls: 3,
      models: {
        'gemini-2.5-flash': { total_tokens: 45 + 67 },
      },
    });
  });

  it("json: the subagent's requests are the subagent role of its model", async () => {
    const { cwd, replay } = setup();
    const run = await cli(
      ['-p', 'What do the notes say?', '--fake-responses', replay, '-o', 'json', '--skip-trust'],
      cwd,
    );
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout) as {
      response: string;
      stats: {
        models: Record<string, { api: { totalRequests: number }; roles: Record<string, unknown> }>;
        tools: { totalCalls: number; byName: Record<string, unknown> };
      };
    };
    expect(body.response).toBe('The notes say "the notes".');
    const flash = body.stats.models['gemini-2.5-flash'];
    expect(flash?.api.totalRequests).toBe(2);
    expect(Object.keys(flash?.roles ?? {})).toEqual(['subagent']);
    expect(Object.keys(body.stats.tools.byName).sort()).toEqual([
      'complete_task',
      'invoke_agent',
      'read_file',
    ]);
  });
});
