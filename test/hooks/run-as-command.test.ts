import { mkdtempSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type {
  AnySdkHook,
  GeminiCliAgentOptions,
  ServerGeminiStreamEvent,
} from '../../src/index.js';
import type { HookDefinitionSettings } from '../../src/settings/settings-schema.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { annotate, context, cool, guard } from './fixtures/round-trip-hooks.js';
import { agentWith, drain, lastResponses, lastUserText, notes } from './helpers.js';

const HOOKS_FILE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'round-trip-hooks.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The settings `hooks` object that runs the same hooks as commands (`runAsCommand()` in a child process). */
function asSettingsHooks(hooks: readonly AnySdkHook[]): Record<string, HookDefinitionSettings[]> {
  const byEvent: Record<string, HookDefinitionSettings[]> = {};
  for (const h of hooks) {
    const command = `${quote(process.execPath)} --import ${quote(TSX)} ${quote(HOOKS_FILE)} ${h.name}`;
    (byEvent[h.event] ??= []).push({
      ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
      hooks: [{ type: 'command', name: h.name, command, timeout: 20_000 }],
    });
  }
  return byEvent;
}

/** What the model and the user saw of one run. */
interface Observed {
  prompt: string;
  temperature: number | undefined;
  responses: unknown[];
  notes: Array<Record<string, unknown>>;
  flow: unknown[];
  messages: string[];
  warnings: string[];
}

async function observe(
  mode: 'in-process' | 'command',
  hooks: readonly AnySdkHook[],
  turns: ReturnType<typeof textTurn>[],
  prompt: string,
  cwd: string,
): Promise<Observed> {
  notes.length = 0;
  const model = new ScriptedModel(turns);
  const options: GeminiCliAgentOptions =
    mode === 'in-process'
      ? { hooks: [...hooks] }
      : { settings: { overrides: { hooks: asSettingsHooks(hooks) } } };
  const events: ServerGeminiStreamEvent[] = await drain(
    agentWith(model, { cwd, generationConfig: { temperature: 0.9 }, ...options })
      .session()
      .sendStream(prompt),
  );
  const first = model.generateRequests[0];
  return {
    prompt: lastUserText(first),
    temperature: first?.config?.temperature,
    responses: lastResponses(model.generateRequests[1]),
    notes: [...notes],
    flow: events
      .filter((e) => e.type === 'agent_execution_stopped' || e.type === 'agent_execution_blocked')
      .map((e) => [e.type, e.value]),
    messages: events
      .flatMap((e) => (e.type === 'hook_system_message' ? [e.value.message] : []))
      .sort(),
    warnings: events.flatMap((e) => (e.type === 'warning' ? [e.value.message] : [])),
  };
}

describe('runAsCommand(): the same hook object as a settings.json command hook', () => {
  it('gives the same decisions, rewrites, context, stops and blocks as in-process', async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'hooks-round-trip-')));
    const scenarios: Array<{
      hooks: AnySdkHook[];
      turns: ReturnType<typeof textTurn>[];
      prompt: string;
    }> = [
      {
        hooks: [guard, annotate, context, cool],
        prompt: 'take notes',
        turns: [
          callTurn(
            { name: 'note', args: { text: 'key', file_path: 'prod.env' } },
            { name: 'note', args: { text: 'rewrite:quiet' } },
            { name: 'note', args: { text: 'plain' } },
          ),
          textTurn('done'),
        ],
      },
      {
        hooks: [guard],
        prompt: 'stop here',
        turns: [callTurn({ name: 'note', args: { text: 'stop' } }), textTurn('never')],
      },
      { hooks: [context], prompt: 'my password is x', turns: [textTurn('never')] },
    ];
    for (const { hooks, turns, prompt } of scenarios) {
      const inProcess = await observe('in-process', hooks, turns, prompt, cwd);
      const command = await observe('command', hooks, turns, prompt, cwd);
      expect(command).toEqual(inProcess);
      expect(inProcess.warnings).toEqual([]);
    }

    // And the answers are the hooks' (not two runs that both ignored them).
    const first = await observe(
      'in-process',
      scenarios[0]!.hooks,
      scenarios[0]!.turns,
      'take notes',
      cwd,
    );
    expect(first.prompt).toBe('take notes<hook_context>true</hook_context>');
    expect(first.temperature).toBe(0.1);
    expect(first.responses).toEqual([
      { error: 'Tool execution blocked: secrets are read-only (note)' },
      {
        output: expect.stringMatching(
          /^noted QUIET\n\n<hook_context>&lt;hooks-round-trip-\w+&gt; saw "noted QUIET"<\/hook_context>\n\n\[System\] Tool input parameters were modified by a hook before execution\.$/,
        ),
      },
      { output: expect.stringContaining('noted plain\n\n<hook_context>') },
    ]);
    expect(first.notes).toEqual([{ text: 'QUIET' }, { text: 'plain' }]);
    expect(first.messages).toEqual(['checked note', 'checked note']);
  });
});

describe('runAsCommand() in this process', () => {
  const run = async (h: AnySdkHook, stdin: string) => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (c: Buffer) => (out += c.toString()));
    stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await h.runAsCommand({ stdin, stdout, stderr });
    return { code, out, err };
  };
  const input = {
    session_id: 's1',
    transcript_path: '',
    cwd: process.cwd(),
    timestamp: new Date().toISOString(),
  };

  it('answers its own event with JSON, ignores other events, and reports bad input on stderr', async () => {
    const denied = await run(
      guard,
      JSON.stringify({
        ...input,
        hook_event_name: 'BeforeTool',
        tool_name: 'note',
        tool_input: { text: 'x', file_path: '.env' },
      }),
    );
    expect(denied).toEqual({
      code: 0,
      out: `${JSON.stringify({ decision: 'deny', reason: 'secrets are read-only (note)' })}\n`,
      err: '',
    });
    expect(await run(guard, JSON.stringify({ ...input, hook_event_name: 'AfterTool' }))).toEqual({
      code: 0,
      out: '',
      err: '',
    });
    const bad = await run(guard, 'not json');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('cannot read the hook input from stdin');
  });
});
