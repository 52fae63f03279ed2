import { RequestError } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  MissingCredentialsError,
  ModelApiError,
  SessionBusyError,
  SessionLockedError,
  SessionNotFoundError,
} from '../errors.js';
import { readableMessage, toRequestError } from './acp-errors.js';
import { planEntries, proposedText } from './edit-diff.js';
import { replayUpdates } from './history-replay.js';
import { clientMcpServers } from './mcp-servers.js';
import { permissionChoice, permissionOptions } from './permissions.js';
import { approvalModeOf, configOptions, modeIdOf } from './session-config.js';
import { ToolCatalog } from './tool-display.js';

describe('permissions', () => {
  const offered = permissionOptions({ toolName: 'write_file', kind: 'edit' });

  it('offers gemini-cli option ids; MCP tools get the per-tool option; alwaysAllow: false drops it', () => {
    expect(offered.map((o) => [o.optionId, o.kind])).toEqual([
      ['proceed_always', 'allow_always'],
      ['proceed_once', 'allow_once'],
      ['cancel', 'reject_once'],
    ]);
    expect(permissionOptions({ toolName: 'mcp_github_create', kind: 'other' })[0]?.optionId).toBe(
      'proceed_always_tool',
    );
    expect(
      permissionOptions({ toolName: 'x', kind: 'edit' }, false).map((o) => o.optionId),
    ).toEqual(['proceed_once', 'cancel']);
  });

  it('maps answers to decisions and fails closed on anything unexpected', () => {
    const select = (optionId: string) => ({ outcome: { outcome: 'selected', optionId } });
    expect(permissionChoice(select('proceed_once'), offered)).toEqual({
      kind: 'decision',
      decision: 'allow',
    });
    expect(permissionChoice(select('proceed_always'), offered)).toEqual({
      kind: 'decision',
      decision: 'allow_always',
    });
    expect(permissionChoice(select('cancel'), offered)).toEqual({
      kind: 'decision',
      decision: 'deny',
    });
    expect(permissionChoice({ outcome: { outcome: 'cancelled' } }, offered)).toEqual({
      kind: 'cancelled',
    });
    for (const hostile of [
      undefined,
      null,
      'allow',
      {},
      { outcome: 'selected' },
      select('proceed_always_server'),
    ]) {
      expect(permissionChoice(hostile, offered)).toMatchObject({
        kind: 'decision',
        decision: 'deny',
      });
    }
  });
});

describe('modes and config options', () => {
  it("uses gemini-cli's mode ids and accepts the SDK's own spelling", () => {
    expect(modeIdOf('auto_edit')).toBe('autoEdit');
    expect(approvalModeOf('autoEdit')).toBe('auto_edit');
    expect(approvalModeOf('auto_edit')).toBe('auto_edit');
    expect(() => approvalModeOf('fast')).toThrow(RequestError);
  });

  it('adds the current model to the selector when it is not in the list', () => {
    const model = configOptions('plan', 'my-model', ['a', 'b']).find((o) => o.id === 'model');
    expect(model).toMatchObject({ currentValue: 'my-model' });
    expect(
      model?.type === 'select' ? model.options.map((o) => ('value' in o ? o.value : '')) : [],
    ).toEqual(['my-model', 'a', 'b']);
  });
});

describe('error mapping', () => {
  it('maps the SDK errors to JSON-RPC codes in one place', () => {
    expect(toRequestError(new MissingCredentialsError('no key')).code).toBe(-32000);
    expect(toRequestError(new SessionNotFoundError('Session with ID x not found')).code).toBe(
      -32002,
    );
    expect(toRequestError(new ConfigurationError('bad')).code).toBe(-32602);
    expect(toRequestError(new SessionBusyError('busy')).code).toBe(-32600);
    expect(toRequestError(new SessionLockedError('locked')).code).toBe(-32600);
    expect(toRequestError(new ModelApiError('x', { status: 429 }))).toMatchObject({
      code: 429,
      message: 'Rate limit exceeded. Try again later.',
    });
    expect(
      toRequestError(new ModelApiError('Gemini API error 503: down', { status: 503 })).code,
    ).toBe(503);
    expect(toRequestError(new ModelApiError('network', {})).code).toBe(500);
    expect(toRequestError(new Error('boom'))).toMatchObject({
      code: -32603,
      message: 'Internal error: boom',
    });
  });

  it('unwraps Google error bodies embedded in messages', () => {
    expect(
      readableMessage('{"error":{"message":"{\\"error\\":{\\"message\\":\\"quota\\"}}"}}'),
    ).toBe('quota');
    expect(readableMessage('plain text')).toBe('plain text');
  });
});

describe('edits and plans', () => {
  it('previews replace and write_file edits', () => {
    const snapshot = { path: '/p/a.txt', oldText: 'one two\n' };
    expect(proposedText('replace', { old_string: 'two', new_string: '2' }, snapshot)).toBe(
      'one 2\n',
    );
    expect(
      proposedText('replace', { old_string: 'zzz', new_string: '2' }, snapshot),
    ).toBeUndefined();
    expect(
      proposedText(
        'replace',
        { old_string: '', new_string: 'new' },
        { path: '/p/b', oldText: null },
      ),
    ).toBe('new');
    expect(proposedText('write_file', { content: 'all' }, snapshot)).toBe('all');
  });

  it("maps write_todos statuses onto ACP's three, in the list's order", () => {
    expect(
      planEntries({
        todos: [
          { description: 'a', status: 'cancelled' },
          { description: 'b', status: 'blocked' },
          { description: 'c', status: 'in_progress' },
          { description: 'd', status: 'pending' },
          { description: 'e', status: 'completed' },
        ],
      }),
    ).toEqual([
      { content: 'a (cancelled)', priority: 'medium', status: 'completed' },
      { content: 'b (blocked)', priority: 'medium', status: 'pending' },
      { content: 'c', priority: 'medium', status: 'in_progress' },
      { content: 'd', priority: 'medium', status: 'pending' },
      { content: 'e', priority: 'medium', status: 'completed' },
    ]);
    expect(planEntries({ todos: [] })).toEqual([]);
  });
});

describe('client MCP servers', () => {
  it("converts to gemini-cli's MCPServerConfig shape with the session cwd for stdio", () => {
    expect(
      clientMcpServers(
        [
          { name: 'fs', command: 'npx', args: ['server'], env: [{ name: 'K', value: 'v' }] },
          {
            type: 'http',
            name: 'web',
            url: 'https://x.test/mcp',
            headers: [{ name: 'A', value: 'b' }],
          },
          { type: 'sse', name: 'old', url: 'http://127.0.0.1:1/sse', headers: [] },
        ],
        '/work',
      ),
    ).toEqual({
      fs: { command: 'npx', args: ['server'], env: { K: 'v' }, cwd: '/work' },
      web: { httpUrl: 'https://x.test/mcp', headers: { A: 'b' } },
      old: { url: 'http://127.0.0.1:1/sse', type: 'sse', headers: {} },
    });
    expect(() => clientMcpServers([{ name: ' ', command: 'x', args: [], env: [] }], '/w')).toThrow(
      RequestError,
    );
    expect(() => clientMcpServers([{ name: 'a', command: '', args: [], env: [] }], '/w')).toThrow(
      RequestError,
    );
  });
});

describe('history replay', () => {
  it('skips injected context, pairs calls with responses, clips long outputs and leaves unanswered calls pending', () => {
    const long = 'x'.repeat(5000);
    const updates = replayUpdates(
      [
        {
          role: 'user',
          parts: [{ text: '<session_context>hidden</session_context>' }, { text: 'hi' }],
        },
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'read_file__1', name: 'read_file', args: { file_path: 'a' } } },
            {
              functionCall: {
                id: 'write_file__2',
                name: 'write_file',
                args: { file_path: 'b', content: '' },
              },
            },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'read_file__1',
                name: 'read_file',
                response: { output: long },
              },
            },
          ],
        },
      ],
      new ToolCatalog(),
      '/w',
    );
    expect(updates[0]).toEqual({
      sessionUpdate: 'user_message_chunk',
      content: { type: 'text', text: 'hi' },
    });
    expect(updates[1]).toMatchObject({
      sessionUpdate: 'tool_call',
      status: 'completed',
      locations: [{ path: '/w/a' }],
    });
    const text = JSON.stringify(updates[1]);
    expect(text).toContain('more characters');
    expect(text.length).toBeLessThan(4500);
    expect(updates[2]).toMatchObject({
      sessionUpdate: 'tool_call',
      status: 'pending',
      kind: 'edit',
    });
    expect(updates).toHaveLength(3);
  });

  it('replays a write_todos call completed with no content and sends no plan, as gemini 0.61', () => {
    const todos = [{ description: 'Write tests', status: 'in_progress' }];
    const updates = replayUpdates(
      [
        { role: 'user', parts: [{ text: 'plan it' }] },
        {
          role: 'model',
          parts: [{ functionCall: { id: 'write_todos__1', name: 'write_todos', args: { todos } } }],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'write_todos__1',
                name: 'write_todos',
                response: { output: 'Successfully updated the todo list.' },
              },
            },
          ],
        },
      ],
      new ToolCatalog(),
      '/w',
    );
    expect(updates[1]).toMatchObject({
      sessionUpdate: 'tool_call',
      toolCallId: 'write_todos__1',
      status: 'completed',
      content: [],
    });
    expect(updates.map((u) => u.sessionUpdate)).toEqual(['user_message_chunk', 'tool_call']);
  });
});
