import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel, callTurn, modelTurn, textTurn } from '../../src/testing/index.js';
import { rpcError, startHarness, tempCwd, type Harness } from './helpers/acp-harness.js';

let project: { cwd: string; cleanup(): Promise<void> };
let harness: Harness | undefined;

beforeEach(async () => {
  project = await tempCwd();
});
afterEach(async () => {
  await harness?.server.close();
  harness = undefined;
  await project.cleanup();
});

describe('ACP server: initialize and session setup', () => {
  it('answers initialize with protocol 1, agent info, auth methods and every capability it serves', async () => {
    harness = await startHarness(
      { cwd: project.cwd, contentGenerator: new ScriptedModel([]) },
      {},
      { initialize: false },
    );
    const response = await harness.ctx.request(acp.methods.agent.initialize, {
      protocolVersion: 7,
    });
    expect(response.protocolVersion).toBe(1);
    expect(response.agentInfo).toMatchObject({ name: 'gemini-agent-sdk' });
    expect(response.authMethods?.map((m) => m.id)).toEqual([
      'oauth-personal',
      'gemini-api-key',
      'vertex-ai',
      'gateway',
    ]);
    expect(response.agentCapabilities).toEqual({
      loadSession: true,
      promptCapabilities: { image: true, audio: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: {
        list: {},
        delete: {},
        resume: {},
        close: {},
        additionalDirectories: {},
      },
      auth: { logout: {} },
    });
  });

  it('refuses session requests before initialize with -32600', async () => {
    harness = await startHarness(
      { cwd: project.cwd, contentGenerator: new ScriptedModel([]) },
      {},
      { initialize: false },
    );
    const error = await rpcError(harness.newSession());
    expect(error.code).toBe(-32600);
  });

  it('creates a session with modes, config options and the available commands', async () => {
    harness = await startHarness({ cwd: project.cwd, contentGenerator: new ScriptedModel([]) });
    const session = await harness.newSession();
    expect(session.sessionId).toMatch(/[0-9a-f-]{36}/);
    expect(session.modes?.currentModeId).toBe('default');
    expect(session.modes?.availableModes.map((m) => m.id)).toEqual([
      'default',
      'autoEdit',
      'yolo',
      'plan',
    ]);
    expect(session.configOptions?.map((o) => o.id)).toEqual(['mode', 'model']);
    const commands = await harness.client.waitForUpdate(
      (u) => u.sessionUpdate === 'available_commands_update',
    );
    expect(commands.sessionId).toBe(session.sessionId);
  });

  it('rejects a relative, missing or non-directory cwd with -32602', async () => {
    harness = await startHarness({ cwd: project.cwd, contentGenerator: new ScriptedModel([]) });
    await writeFile(join(project.cwd, 'file.txt'), 'x');
    for (const cwd of [
      'relative/dir',
      join(project.cwd, 'missing'),
      join(project.cwd, 'file.txt'),
    ]) {
      const error = await rpcError(harness.newSession(cwd));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain('cwd');
    }
  });

  it('says authentication is required (-32000) when no credentials are configured', async () => {
    const saved = { ...process.env };
    for (const key of ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GENAI_USE_VERTEXAI'])
      delete process.env[key];
    try {
      harness = await startHarness({ cwd: project.cwd });
      const error = await rpcError(harness.newSession());
      expect(error.code).toBe(-32000);
      expect(error.message).toMatch(/Authentication required: No Gemini credentials/);
      const auth = await rpcError(
        harness.ctx.request(acp.methods.agent.authenticate, { methodId: 'gemini-api-key' }),
      );
      expect(auth.code).toBe(-32000);
      await harness.ctx.request(acp.methods.agent.authenticate, {
        methodId: 'gemini-api-key',
        _meta: { 'api-key': 'key-from-editor' },
      });
      const session = await harness.newSession();
      expect(session.sessionId).toBeTruthy();
      const unknown = await rpcError(
        harness.ctx.request(acp.methods.agent.authenticate, { methodId: 'magic' }),
      );
      const google = await rpcError(
        harness.ctx.request(acp.methods.agent.authenticate, { methodId: 'oauth-personal' }),
      );
      expect(google.code).toBe(-32000);
      expect(google.message).toContain('gemini-agent login');
      const headers = await rpcError(
        harness.ctx.request(acp.methods.agent.authenticate, {
          methodId: 'gateway',
          _meta: { gateway: { baseUrl: 'http://127.0.0.1:1', headers: { a: 'b' } } },
        }),
      );
      expect(headers.code).toBe(-32602);
      expect(unknown.code).toBe(-32602);
    } finally {
      process.env = saved;
    }
  });
});

describe('ACP server: prompts', () => {
  it('streams thoughts, text and usage, and ends the turn', async () => {
    const model = new ScriptedModel([
      modelTurn(
        [
          { text: '**Planning** the answer', thought: true },
          { text: 'Hello ' },
          { text: 'there.' },
        ],
        {
          promptTokenCount: 12,
          candidatesTokenCount: 3,
          totalTokenCount: 15,
        },
      ),
    ]);
    harness = await startHarness({ cwd: project.cwd, contentGenerator: model });
    const { sessionId } = await harness.newSession();
    const response = await harness.prompt(sessionId, 'Say hello');
    expect(response.stopReason).toBe('end_turn');
    const updates = harness.client
      .of(sessionId)
      .filter((u) => u.sessionUpdate !== 'available_commands_update');
    expect(updates).toEqual([
      { sessionUpdate: 'session_info_update', title: 'Say hello', updatedAt: expect.any(String) },
      {
        sessionUpdate: 'agent_thought_chunk',
        content: { type: 'text', text: '**Planning**\nthe answer' },
      },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello there.' } },
      { sessionUpdate: 'usage_update', used: 15, size: 1_048_576 },
    ]);
    model.assertComplete();
  });

  it('maps prompt blocks: images inline, file links and embedded resources appended as context', async () => {
    const model = new ScriptedModel([textTurn('ok')]);
    harness = await startHarness({ cwd: project.cwd, contentGenerator: model });
    await writeFile(join(project.cwd, 'notes.md'), 'NOTE BODY');
    const { sessionId } = await harness.newSession();
    await harness.ctx.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: 'Look:' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'resource_link', name: 'notes.md', uri: `file://${join(project.cwd, 'notes.md')}` },
        { type: 'resource', resource: { uri: 'mem://snippet', text: 'EMBEDDED TEXT' } },
      ],
    });
    const parts = model.generateRequests[0]?.contents;
    const text = JSON.stringify(parts);
    expect(text).toContain('"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}');
    expect(text).toContain('NOTE BODY');
    expect(text).toContain('EMBEDDED TEXT');
    expect(text).toContain('--- Content from referenced context ---');
  });

  it('maps the stop reasons: max_tokens, refusal and max_turn_requests', async () => {
    const cut = modelTurn([{ text: 'cut' }]);
    (cut[0]!.candidates![0] as { finishReason: string }).finishReason = 'MAX_TOKENS';
    const refused = modelTurn([{ text: '' }]);
    (refused[0]!.candidates![0] as { finishReason: string }).finishReason = 'SAFETY';
    const model = new ScriptedModel([
      cut,
      refused,
      callTurn({ name: 'list_directory', args: { dir_path: '.' } }),
    ]);
    harness = await startHarness({
      cwd: project.cwd,
      contentGenerator: model,
      limits: { maxTurns: 1 },
      // An empty SAFETY answer is an invalid stream: without re-sends it ends the turn at once, as a refusal.
      retry: false,
    });
    const { sessionId } = await harness.newSession();
    expect((await harness.prompt(sessionId, 'a')).stopReason).toBe('max_tokens');
    expect((await harness.prompt(sessionId, 'b')).stopReason).toBe('refusal');
    expect((await harness.prompt(sessionId, 'c')).stopReason).toBe('max_turn_requests');
  });

  it("turns a 429 from the model into gemini-cli's rate-limit error, and the session keeps working", async () => {
    const { ModelApiError } = await import('../../src/index.js');
    const model = new ScriptedModel([
      () => {
        throw new ModelApiError('Gemini API error 429: quota', { status: 429, retryable: true });
      },
      textTurn('recovered'),
    ]);
    harness = await startHarness({ cwd: project.cwd, contentGenerator: model, retry: false });
    const { sessionId } = await harness.newSession();
    const error = await rpcError(harness.prompt(sessionId, 'hi'));
    expect(error).toMatchObject({ code: 429, message: 'Rate limit exceeded. Try again later.' });
    expect((await harness.prompt(sessionId, 'again')).stopReason).toBe('end_turn');
  });

  it('runs /about without calling the model', async () => {
    const model = new ScriptedModel([]);
    harness = await startHarness({ cwd: project.cwd, contentGenerator: model });
    const { sessionId } = await harness.newSession();
    expect((await harness.prompt(sessionId, '/about')).stopReason).toBe('end_turn');
    const text = harness.client
      .of(sessionId)
      .flatMap((u) =>
        u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text'
          ? [u.content.text]
          : [],
      )
      .join('');
    expect(text).toContain(`Session: ${sessionId}`);
    expect(model.requests).toHaveLength(0);
  });

  it('switches mode (with current_mode_update) and model (used by the next request)', async () => {
    const model = new ScriptedModel([textTurn('one')]);
    harness = await startHarness({ cwd: project.cwd, contentGenerator: model });
    const { sessionId } = await harness.newSession();
    await harness.ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'autoEdit' });
    await harness.client.waitForUpdate(
      (u) => u.sessionUpdate === 'current_mode_update' && u.currentModeId === 'autoEdit',
    );
    const set = await harness.ctx.request(acp.methods.agent.session.setConfigOption, {
      sessionId,
      configId: 'model',
      value: 'gemini-2.5-flash',
    });
    expect(set.configOptions.find((o) => o.id === 'model')).toMatchObject({
      currentValue: 'gemini-2.5-flash',
    });
    expect(set.configOptions.find((o) => o.id === 'mode')).toMatchObject({
      currentValue: 'autoEdit',
    });
    await harness.prompt(sessionId, 'hi');
    expect(model.generateRequests[0]?.model).toBe('gemini-2.5-flash');
    const badMode = await rpcError(
      harness.ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'turbo' }),
    );
    expect(badMode.code).toBe(-32602);
    const badModel = await rpcError(
      harness.ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: 'model',
        value: 'gpt-9',
      }),
    );
    expect(badModel.code).toBe(-32602);
    const badOption = await rpcError(
      harness.ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: 'nope',
        value: 'x',
      }),
    );
    expect(badOption.code).toBe(-32602);
  });
});

describe('ACP server: session lifecycle', () => {
  it('lists, resumes, closes and deletes sessions', async () => {
    const model = new ScriptedModel([textTurn('first answer'), textTurn('after resume')]);
    harness = await startHarness({ cwd: project.cwd, contentGenerator: model });
    const { sessionId } = await harness.newSession();
    await harness.prompt(sessionId, 'first question');
    const listed = await harness.ctx.request(acp.methods.agent.session.list, { cwd: project.cwd });
    expect(listed.sessions).toEqual([
      expect.objectContaining({
        sessionId,
        title: 'first question',
        updatedAt: expect.any(String),
      }),
    ]);
    await harness.ctx.request(acp.methods.agent.session.close, { sessionId });
    expect((await rpcError(harness.prompt(sessionId, 'closed?'))).code).toBe(-32002);
    const resumed = await harness.ctx.request(acp.methods.agent.session.resume, {
      sessionId,
      cwd: project.cwd,
    });
    expect(resumed.modes?.currentModeId).toBe('default');
    expect((await harness.prompt(sessionId, 'still there?')).stopReason).toBe('end_turn');
    expect(JSON.stringify(model.generateRequests[1]?.contents)).toContain('first answer');
    await harness.ctx.request(acp.methods.agent.session.delete, { sessionId });
    expect(
      (await harness.ctx.request(acp.methods.agent.session.list, { cwd: project.cwd })).sessions,
    ).toEqual([]);
    const missing = await rpcError(
      harness.ctx.request(acp.methods.agent.session.load, {
        sessionId,
        cwd: project.cwd,
        mcpServers: [],
      }),
    );
    expect(missing.code).toBe(-32002);
  });

  it('pages session/list with an opaque cursor and rejects a forged one', async () => {
    harness = await startHarness({ cwd: project.cwd, contentGenerator: new ScriptedModel([]) });
    const bad = await rpcError(
      harness.ctx.request(acp.methods.agent.session.list, { cursor: 'not-a-cursor' }),
    );
    expect(bad.code).toBe(-32602);
  });

  it('validates client MCP servers (names, urls) and accepts valid ones', async () => {
    harness = await startHarness({ cwd: project.cwd, contentGenerator: new ScriptedModel([]) });
    const ok = await harness.ctx.request(acp.methods.agent.session.new, {
      cwd: project.cwd,
      mcpServers: [
        {
          name: 'files',
          command: 'node',
          args: ['server.js'],
          env: [{ name: 'TOKEN', value: 'x' }],
        },
        { type: 'http', name: 'web', url: 'http://127.0.0.1:9/mcp', headers: [] },
      ],
    });
    expect(ok.sessionId).toBeTruthy();
    const duplicate = await rpcError(
      harness.ctx.request(acp.methods.agent.session.new, {
        cwd: project.cwd,
        mcpServers: [
          { name: 'a', command: 'x', args: [], env: [] },
          { name: 'a', command: 'y', args: [], env: [] },
        ],
      }),
    );
    expect(duplicate.code).toBe(-32602);
    const badUrl = await rpcError(
      harness.ctx.request(acp.methods.agent.session.new, {
        cwd: project.cwd,
        mcpServers: [{ type: 'sse', name: 's', url: 'file:///etc/passwd', headers: [] }],
      }),
    );
    expect(badUrl.code).toBe(-32602);
  });

  it('keeps files written by a session in its own cwd', async () => {
    const model = new ScriptedModel([
      callTurn({ name: 'write_file', args: { file_path: 'out.txt', content: 'from acp\n' } }),
      textTurn('written'),
    ]);
    harness = await startHarness({
      cwd: project.cwd,
      contentGenerator: model,
      policy: { mode: 'yolo' },
    });
    const { sessionId } = await harness.newSession();
    await harness.prompt(sessionId, 'write it');
    expect(await readFile(join(project.cwd, 'out.txt'), 'utf8')).toBe('from acp\n');
  });
});
