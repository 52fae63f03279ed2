import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GeminiCliAgent, hook, type HookRunRecord } from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { drain, lastResponses, note, notes, ofType } from './helpers.js';

let savedHome: string | undefined;
let home: string;
beforeEach(() => {
  savedHome = process.env['GEMINI_CLI_HOME'];
  home = mkdtempSync(join(tmpdir(), 'hostile-home-'));
  process.env['GEMINI_CLI_HOME'] = home;
});
afterEach(() => {
  process.env['GEMINI_CLI_HOME'] = savedHome;
});

function userSettings(hooks: Record<string, unknown>): void {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ hooks }));
}

const command = (name: string, cmd: string, timeout?: number) => ({
  type: 'command',
  name,
  command: cmd,
  ...(timeout ? { timeout } : {}),
});

describe('hooks that misbehave never stop the agent: fail open, warn, record', () => {
  it('command hooks that hang, print garbage, exit 137, flood stdout or answer wrong types', async () => {
    notes.length = 0;
    userSettings({
      BeforeAgent: [{ hooks: [command('agent-garbage', 'head -c 3000 /dev/urandom; exit 0')] }],
      BeforeTool: [
        {
          matcher: 'note',
          hooks: [
            command('hang', 'sleep 30', 300),
            command('exit-137', 'exit 137'),
            command('self-kill', 'kill -9 $$'),
            command('flood', 'head -c 100000000 /dev/zero | tr "\\0" x'),
            command(
              'wrong-types',
              `echo '{"decision": 42, "continue": "no", "hookSpecificOutput": {"tool_input": "rm -rf /"}}'`,
            ),
            command('array', 'echo "[1, 2, 3]"'),
            command('missing', '/nonexistent/hook.sh'),
          ],
        },
      ],
      AfterModel: [{ hooks: [command('bad-json', 'echo "{not json"; exit 1')] }],
    });
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'hostile-ws-')));
    const records: HookRunRecord[] = [];
    const model = new ScriptedModel([
      callTurn({ name: 'note', args: { text: 'kept' } }),
      textTurn('ok'),
    ]);
    const events = await drain(
      new GeminiCliAgent({
        contentGenerator: model,
        cwd,
        tools: [note],
        builtinTools: false,
        persist: false,
        onHookRun: (r) => records.push(r),
      })
        .session()
        .sendStream('go'),
    );
    // The folder is untrusted: the user's own hooks still run. The tool ran with its own arguments.
    expect(notes).toEqual([{ text: 'kept' }]);
    expect(lastResponses(model.generateRequests[1])).toEqual([{ output: 'noted kept' }]);
    expect(
      ofType(events, 'content')
        .map((e) => e.value)
        .join(''),
    ).toBe('ok');
    const warnings = ofType(events, 'warning').map((e) => e.value);
    const failed = warnings.find(
      (w) => w.code === 'HOOK_FAILED' && w.message.includes('BeforeTool'),
    );
    expect(failed?.message).toMatch(/hang: Hook timed out after 300ms/);
    for (const name of ['exit-137', 'self-kill', 'flood', 'missing'])
      expect(failed?.message).toContain(`${name}:`);
    expect(failed?.message).toMatch(/flood: The hook wrote more than 1048576 bytes to stdout/);
    const ignored = warnings.filter((w) => w.code === 'HOOK_OUTPUT_IGNORED').map((w) => w.message);
    expect(ignored.some((m) => m.includes('"decision" is 42'))).toBe(true);
    expect(ignored.some((m) => m.includes('"hookSpecificOutput.tool_input"'))).toBe(true);
    expect(ignored.some((m) => m.includes('array') && m.includes('not a JSON object'))).toBe(true);
    // AfterModel's non-JSON exit 1 is gemini-cli's warning text; it ran for each chunk, warned once per call.
    expect(ofType(events, 'hook_system_message').map((e) => e.value.message)).toContain(
      'Warning: {not json',
    );
    expect(
      warnings.filter((w) => w.code === 'HOOK_FAILED' && w.message.includes('AfterModel')),
    ).toHaveLength(2);
    expect(records.map((r) => r.name)).toEqual(
      expect.arrayContaining(['hang', 'exit-137', 'flood', 'wrong-types', 'agent-garbage']),
    );
    expect(records.find((r) => r.name === 'exit-137')).toMatchObject({
      success: false,
      exitCode: 137,
      source: 'project',
      type: 'command',
    });
  });

  it('in-process hooks that throw, hang past their timeout or answer wrong types', async () => {
    notes.length = 0;
    let aborted = false;
    const hooks = [
      hook({ event: 'BeforeTool', name: 'throws' }, () => {
        throw new Error('boom');
      }),
      hook({ event: 'BeforeTool', name: 'hangs', timeout: 200 }, (_input, ctx) => {
        ctx.signal.addEventListener('abort', () => (aborted = true));
        return new Promise(() => undefined);
      }),
      hook({ event: 'BeforeTool', name: 'string' }, () => 'deny' as unknown as undefined),
      hook({ event: 'AfterTool', name: 'wrong' }, () => ({
        decision: 'nope' as never,
        hookSpecificOutput: { additionalContext: 5 as never },
      })),
    ];
    const model = new ScriptedModel([
      callTurn({ name: 'note', args: { text: 'x' } }),
      textTurn('ok'),
    ]);
    const events = await drain(
      new GeminiCliAgent({
        contentGenerator: model,
        tools: [note],
        builtinTools: false,
        persist: false,
        settings: false,
        hooks,
      })
        .session()
        .sendStream('go'),
    );
    expect(notes).toEqual([{ text: 'x' }]);
    expect(lastResponses(model.generateRequests[1])).toEqual([{ output: 'noted x' }]);
    expect(aborted).toBe(true);
    const messages = ofType(events, 'warning').map((e) => e.value.message);
    expect(messages.join('\n')).toMatch(/throws: boom; hangs: Hook timed out after 200ms/);
    expect(messages.join('\n')).toMatch(/string.*not a JSON object/);
    expect(messages.join('\n')).toMatch(/"decision" is "nope"/);
  });
});
