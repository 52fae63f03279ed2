import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandHookCommand, runCommandHook, shellQuote } from './command-hook.js';
import { parseCommandOutput } from './command-output.js';
import type { HookInput } from './hook-types.js';

const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'hook-cmd-')));
const input: HookInput<'BeforeTool'> = {
  session_id: 'sess-1',
  transcript_path: '',
  cwd,
  hook_event_name: 'BeforeTool',
  timestamp: new Date().toISOString(),
  tool_name: 'write_file',
  tool_input: { file_path: 'a.txt', content: 'x' },
};

function run(command: string, extra: { timeout?: number; cap?: number; grace?: number } = {}) {
  return runCommandHook(
    { type: 'command', command, ...(extra.timeout ? { timeout: extra.timeout } : {}) },
    input,
    {
      env: process.env,
      plansDir: join(cwd, 'plans dir'),
      ...(extra.cap ? { maxOutputBytes: extra.cap } : {}),
      ...(extra.grace ? { killGraceMs: extra.grace } : {}),
    },
  );
}

describe('command hooks', () => {
  it('gets the input as JSON on stdin and answers with JSON on stdout', async () => {
    const result = await run(
      `jq -c '{decision: "deny", reason: (.tool_name + ":" + .tool_input.file_path)}'`,
    );
    expect(result).toMatchObject({
      success: true,
      exitCode: 0,
      outputFormat: 'json',
      output: { decision: 'deny', reason: 'write_file:a.txt' },
    });
  });

  it('sets the GEMINI_* variables, runs in cwd and expands the bare $VAR form', async () => {
    const result = await run(
      'printf "%s|%s|%s|%s|%s|%s" "$GEMINI_PROJECT_DIR" "${GEMINI_CWD}" "$GEMINI_SESSION_ID" "$CLAUDE_PROJECT_DIR" "$(pwd)" $GEMINI_PLANS_DIR',
    );
    expect(result.output).toEqual({
      decision: 'allow',
      systemMessage: [cwd, cwd, 'sess-1', cwd, cwd, join(cwd, 'plans dir')].join('|'),
    });
    expect(expandHookCommand('cat $GEMINI_PLANS_DIR/x', input, "/a b/it's")).toBe(
      `cat '/a b/it'\\''s'/x`,
    );
    expect(shellQuote('/plain/path-1.2')).toBe('/plain/path-1.2');
  });

  it('maps plain text by exit code: 0 allow, 1 warning, 2 to 125 deny', async () => {
    expect((await run('echo fine')).output).toEqual({ decision: 'allow', systemMessage: 'fine' });
    const one = await run('echo careful >&2; exit 1');
    expect(one).toMatchObject({ success: false, exitCode: 1 });
    expect(one.output).toEqual({ decision: 'allow', systemMessage: 'Warning: careful' });
    expect((await run('echo nope >&2; exit 2')).output).toEqual({
      decision: 'deny',
      reason: 'nope',
    });
    expect((await run('echo no; exit 125')).output).toEqual({ decision: 'deny', reason: 'no' });
    // A hook that could not run (126, 127) or was killed (128 + signal, a signal) has no effect: fail open.
    for (const crash of ['echo killed; exit 137', 'echo gone >&2; exit 127', 'echo x; kill -9 $$'])
      expect(await run(crash)).toMatchObject({ success: false, output: undefined });
  });

  it('accepts double-encoded JSON and ignores JSON that is not an object', () => {
    expect(parseCommandOutput(JSON.stringify('{"decision":"block"}'), '', 0).output).toEqual({
      decision: 'block',
    });
    expect(parseCommandOutput('42', '', 0)).toEqual({ output: undefined, format: undefined });
    expect(parseCommandOutput('"not json inside"', '', 2).output).toEqual({
      decision: 'deny',
      reason: '"not json inside"',
    });
    expect(parseCommandOutput('', '{"continue":false}', 2).output).toEqual({ continue: false });
  });

  it('kills a hook that outlives its timeout, with its whole process group, and fails open', async () => {
    const pidFile = join(cwd, 'pids');
    const result = await run(`trap '' TERM; sleep 30 & echo $! > ${pidFile}; sleep 30; echo late`, {
      timeout: 300,
      grace: 200,
    });
    expect(result).toMatchObject({ success: false, error: 'Hook timed out after 300ms' });
    // The background child ignores SIGTERM too: the SIGKILL after the grace period ends it.
    const child = Number(readFileSync(pidFile, 'utf8'));
    const alive = (): boolean => {
      try {
        process.kill(child, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  });

  it('kills a hook that floods stdout past the cap and ignores its output', async () => {
    const result = await run('yes garbage', { cap: 64 * 1024 });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/more than 65536 bytes to stdout/);
    expect(result.output).toBeUndefined();
  });

  it('reports a command that cannot run (missing program) as a failure, not a throw', async () => {
    const result = await run('definitely-not-a-program-xyz');
    expect(result.success).toBe(false);
    expect(result.exitCode).toBe(127);
  });

  it('ignores a hook that never reads its input', async () => {
    const big = { ...input, tool_input: { content: 'x'.repeat(2_000_000) } };
    const result = await runCommandHook({ type: 'command', command: 'echo "{}"' }, big, {
      env: process.env,
      plansDir: cwd,
    });
    expect(result).toMatchObject({ success: true, output: {} });
  });
});
