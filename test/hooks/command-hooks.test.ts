import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GeminiCliAgent, type ApprovalRequest } from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { drain, lastResponses, lastUserText, ofType } from './helpers.js';

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'gemini-setup');
let home: string;
let savedHome: string | undefined;

beforeEach(() => {
  savedHome = process.env['GEMINI_CLI_HOME'];
  home = mkdtempSync(join(tmpdir(), 'hooks-home-'));
  process.env['GEMINI_CLI_HOME'] = home;
});
afterEach(() => {
  process.env['GEMINI_CLI_HOME'] = savedHome;
});

function workspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hooks-ws-')));
  cpSync(fixture, dir, { recursive: true });
  return dir;
}

function logOf(dir: string, event: string): Array<Record<string, unknown>> {
  const file = join(dir, '.hook-log', `${event}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a gemini-cli settings.json with bash command hooks for every event', () => {
  it('runs each event’s scripts where gemini-cli does, with its payloads, and applies their answers', async () => {
    const cwd = workspace();
    const model = new ScriptedModel([
      callTurn(
        { name: 'write_file', args: { file_path: 'ok.txt', content: 'hello\nworld\n' } },
        { name: 'write_file', args: { file_path: 'secret.txt', content: 'password=hunter2' } },
        { name: 'run_shell_command', args: { command: 'rm -rf build', description: 'clean' } },
      ),
      textTurn('Done.'),
      textTurn('Summary: wrote ok.txt'),
    ]);
    const approvals: ApprovalRequest[] = [];
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      cwd,
      trustWorkspace: true,
      onApproval: (request) => {
        approvals.push(request);
        return 'allow';
      },
    });
    const session = agent.session();
    const events = await drain(session.sendStream('Write the files.'));
    await session.close();

    // SessionStart: once, with its context before the first prompt; its systemMessage reaches the stream.
    const start = logOf(cwd, 'SessionStart');
    expect(start).toHaveLength(1);
    expect(start[0]).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup', cwd });
    expect(readFileSync(join(cwd, '.hook-log', 'env.txt'), 'utf8').trim()).toBe(
      `session ${session.id} in ${cwd}`,
    );
    const first = model.generateRequests[0];
    expect(lastUserText(first)).toBe(
      '<hook_context>Project: demo (source: startup)</hook_context>\n\nWrite the files.' +
        '<hook_context>Recent commits: No git history</hook_context>',
    );
    expect(ofType(events, 'hook_system_message').map((e) => e.value.message)).toContain(
      'Loaded project context',
    );
    // The first-seen warning about the workspace's own hooks, then trusted_hooks.json records them.
    expect(
      ofType(events, 'warning')
        .map((e) => e.value.message)
        .join('\n'),
    ).toContain('WARNING: The following project-level hooks have been detected in this workspace:');
    const trusted = JSON.parse(readFileSync(join(home, '.gemini', 'trusted_hooks.json'), 'utf8'));
    expect(trusted[cwd]).toContain(
      'block-secrets:$GEMINI_PROJECT_DIR/.gemini/hooks/block-secrets.sh',
    );

    // Every input carries gemini-cli's common fields; the session file is the transcript.
    const beforeModel = logOf(cwd, 'BeforeModel');
    expect(beforeModel).toHaveLength(3);
    const transcript = beforeModel[0]?.['transcript_path'] as string;
    expect(transcript.endsWith('.jsonl') && existsSync(transcript)).toBe(true);
    expect(beforeModel[0]).toMatchObject({
      session_id: session.id,
      cwd,
      hook_event_name: 'BeforeModel',
    });
    expect(logOf(cwd, 'BeforeToolSelection')).toHaveLength(3);
    expect(first?.config?.toolConfig).toEqual({
      functionCallingConfig: {
        mode: 'AUTO',
        allowedFunctionNames: ['read_file', 'run_shell_command', 'write_file'],
      },
    });
    expect(logOf(cwd, 'AfterModel').length).toBeGreaterThanOrEqual(3);

    // BeforeTool: a structured deny, the exit-2 brake, a disabled hook that never runs; AfterTool context.
    const beforeTool = logOf(cwd, 'BeforeTool');
    expect(beforeTool.map((i) => i['tool_name'])).toEqual(
      expect.arrayContaining(['write_file', 'write_file', 'run_shell_command']),
    );
    expect(lastResponses(model.generateRequests[1])).toEqual([
      { output: expect.stringContaining('<hook_context>ok.txt now has 2 lines</hook_context>') },
      { error: 'Tool execution blocked: Security Policy: Potential secret detected in content.' },
      { error: 'Tool execution blocked: rm is not allowed in this project' },
    ]);
    expect(existsSync(join(cwd, 'secret.txt'))).toBe(false);
    expect(readFileSync(join(cwd, 'ok.txt'), 'utf8')).toBe('hello\nworld\n');
    expect(logOf(cwd, 'AfterTool')[0]).toMatchObject({
      tool_name: 'write_file',
      tool_input: { file_path: 'ok.txt' },
      tool_response: { returnDisplay: 'Created ok.txt' },
    });
    expect(logOf(cwd, 'AfterTool')[0]?.['tool_response']).not.toHaveProperty('error');

    // Notification before the one approval asked (the write the policy asks about).
    expect(approvals.map((a) => a.toolName)).toEqual(['write_file']);
    expect(logOf(cwd, 'Notification')).toEqual([
      expect.objectContaining({
        notification_type: 'ToolPermission',
        message: 'Tool Confirm Edit: ok.txt requires editing',
        details: expect.objectContaining({ type: 'edit', filePath: 'ok.txt' }),
      }),
    ]);

    // AfterAgent: the first answer lacks a summary, so the hook sends the agent back once.
    const afterAgent = logOf(cwd, 'AfterAgent');
    expect(afterAgent.map((i) => [i['prompt_response'], i['stop_hook_active']])).toEqual([
      ['Done.', false],
      ['Done.\nSummary: wrote ok.txt', true],
    ]);
    expect(lastUserText(model.generateRequests[2])).toContain(
      'Finish with a line starting with Summary:',
    );
    expect(logOf(cwd, 'BeforeAgent')).toHaveLength(2);

    // SessionEnd on close; PreCompress never fired (no compression happened).
    expect(logOf(cwd, 'SessionEnd')).toEqual([expect.objectContaining({ reason: 'exit' })]);
    expect(logOf(cwd, 'PreCompress')).toEqual([]);
  });

  it('runs no workspace hook in an untrusted folder, and none at all with settingsHooks: false', async () => {
    for (const options of [
      { trustWorkspace: false },
      { trustWorkspace: true, settingsHooks: false },
    ]) {
      const cwd = workspace();
      const model = new ScriptedModel([textTurn('hi')]);
      const session = new GeminiCliAgent({ contentGenerator: model, cwd, ...options }).session();
      await drain(session.sendStream('hello'));
      await session.close();
      expect(existsSync(join(cwd, '.hook-log'))).toBe(false);
      expect(lastUserText(model.generateRequests[0])).toBe('hello');
    }
  });
});
