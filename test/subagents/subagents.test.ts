import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { FileSessionStore, GeminiCliAgent, subagent, tool, z } from '../../src/index.js';
import { callTurn, ScriptedModel, textTurn } from '../../src/testing/index.js';
import {
  activities,
  completeTurn,
  declaredTools,
  drain,
  invokeTurn,
  lastResponses,
  systemText,
  turnWithUsage,
} from './helpers.js';

const lookup = tool(
  { name: 'lookup', description: 'Looks a word up', inputSchema: z.object({ word: z.string() }) },
  ({ word }) => `${word}: a defined word`,
);

const reviewer = subagent({
  name: 'reviewer',
  description: 'Reviews a diff and lists defects',
  instructions: 'You are a strict code reviewer.',
  tools: ['lookup'],
});

function agentWith(
  model: ScriptedModel,
  extra: Partial<ConstructorParameters<typeof GeminiCliAgent>[0]> = {},
) {
  return new GeminiCliAgent({
    contentGenerator: model,
    builtinTools: false,
    persist: false,
    systemPrompt: 'none',
    tools: [lookup],
    subagents: [reviewer],
    ...extra,
  });
}

describe('invoke_agent: a subagent run inside the parent session', () => {
  it('runs the subagent on its own history and tools and answers the parent with gemini-cli text', async () => {
    const model = new ScriptedModel([
      turnWithUsage(invokeTurn('reviewer', 'Review the word "foo".'), 10),
      (request) => {
        // The subagent's own request: its prompt, its tools (no invoke_agent), the Important Rules.
        expect(declaredTools(request)).toEqual(['lookup', 'complete_task']);
        expect(systemText(request)).toContain('You are a strict code reviewer.');
        expect(systemText(request)).toContain('Important Rules:');
        // One user turn: the session's <session_context> first (gemini-cli's session memory), then the task.
        const contents = request.contents as Content[];
        expect(contents).toHaveLength(1);
        expect(contents[0]?.parts?.at(-1)).toEqual({ text: 'Review the word "foo".' });
        return turnWithUsage(callTurn({ name: 'lookup', args: { word: 'foo' } }), 100);
      },
      (request) => {
        expect(lastResponses(request)).toEqual([{ output: 'foo: a defined word' }]);
        return turnWithUsage(completeTurn({ result: 'No defects.' }), 200);
      },
      (request) => {
        expect(lastResponses(request)).toEqual([
          {
            output: "Subagent 'reviewer' finished.\nTermination Reason: GOAL\nResult:\nNo defects.",
          },
        ]);
        return turnWithUsage(textTurn('The reviewer found no defects.'), 20);
      },
    ]);
    await using agent = agentWith(model);
    const session = agent.session();
    const events = await drain(session.sendStream('Please review foo.'));
    model.assertComplete();

    const parentRequest = model.generateRequests[0];
    expect(declaredTools(parentRequest!)).toEqual(['lookup', 'invoke_agent']);
    expect(systemText(parentRequest!)).toContain(
      '<available_subagents>\n  <subagent>\n    <name>reviewer</name>\n    <description>Reviews a diff and lists defects</description>\n  </subagent>\n</available_subagents>',
    );

    const inner = activities(events);
    expect(new Set(inner.map((a) => a.agentName))).toEqual(new Set(['reviewer']));
    const invokeCall = events.find((e) => e.type === 'tool_call_request');
    expect(invokeCall?.type === 'tool_call_request' && invokeCall.value.name).toBe('invoke_agent');
    const parentCallId = invokeCall?.type === 'tool_call_request' ? invokeCall.value.callId : '';
    expect(inner.every((a) => a.parentCallId === parentCallId)).toBe(true);
    expect(new Set(inner.map((a) => a.agentId)).size).toBe(1);
    expect(inner.map((a) => a.event.type)).toEqual([
      'model_info',
      'tool_call_request',
      'finished',
      'tool_call_response',
      'tool_call_request',
      'finished',
      'tool_call_response',
    ]);
    // The parent's history: the prompt, the call, its one answer, the final text — nothing of the subagent's.
    const history = session.getHistory();
    expect(history).toHaveLength(4);
    expect(JSON.stringify(history)).not.toContain('lookup');
    // Usage: the subagent's two calls count in the session, and apart under its name.
    expect(session.usage.modelCalls).toBe(4);
    expect(session.usage.totalTokenCount).toBe(330);
    expect(session.usage.subagents?.['reviewer']).toMatchObject({
      modelCalls: 2,
      totalTokenCount: 300,
    });
  });

  it('answers an unknown agent with the exact error text', async () => {
    const model = new ScriptedModel([
      invokeTurn('nobody', 'hi'),
      (request) => {
        expect(lastResponses(request)).toEqual([{ error: "Subagent 'nobody' not found." }]);
        return textTurn('ok');
      },
    ]);
    await using agent = agentWith(model);
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
  });

  it('a call of a tool the subagent was not given gets gemini-cli\'s "Unauthorized tool call"', async () => {
    const model = new ScriptedModel([
      invokeTurn('reviewer', 'task'),
      callTurn({ name: 'write_file', args: { file_path: '/x', content: 'y' } }),
      (request) => {
        expect(lastResponses(request)).toEqual([
          { error: "Unauthorized tool call: 'write_file' is not available to this agent." },
        ]);
        return completeTurn({ result: 'done' });
      },
      textTurn('ok'),
    ]);
    await using agent = agentWith(model);
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
  });

  it('never gives a subagent invoke_agent, even with tools: ["*"]', async () => {
    const all = subagent({
      name: 'all',
      description: 'Everything',
      instructions: 'Do it.',
      tools: ['*'],
    });
    const model = new ScriptedModel([
      invokeTurn('all', 'task'),
      (request) => {
        expect(declaredTools(request)).toEqual(['lookup', 'complete_task']);
        return completeTurn({ result: 'done' });
      },
      textTurn('ok'),
    ]);
    await using agent = agentWith(model, { subagents: [all] });
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
  });

  it('refuses a blank result, then finishes with the next complete_task', async () => {
    const model = new ScriptedModel([
      invokeTurn('reviewer', 'task'),
      completeTurn({ result: '  ' }),
      (request) => {
        expect(lastResponses(request)).toEqual([
          {
            error:
              'Missing required "result" argument. You must provide your findings when calling complete_task.',
          },
        ]);
        return completeTurn({ result: 'findings' });
      },
      (request) => {
        expect(JSON.stringify(lastResponses(request))).toContain('Result:\\nfindings');
        return textTurn('ok');
      },
    ]);
    await using agent = agentWith(model);
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
  });

  it('a model failure inside the subagent answers the parent "Subagent \'<name>\' failed"', async () => {
    const model = new ScriptedModel([
      invokeTurn('reviewer', 'task'),
      () => {
        throw new Error('backend exploded');
      },
      (request) => {
        const [response] = lastResponses(request) as Array<{ output?: string }>;
        expect(response?.output).toMatch(/^Subagent 'reviewer' failed\. Error: /);
        return textTurn('ok');
      },
    ]);
    await using agent = agentWith(model, { retry: false });
    await drain(agent.session().sendStream('go'));
    model.assertComplete();
  });

  it('rejects a bad definition with a message naming the option', () => {
    expect(() => subagent({ name: 'Bad Name', description: 'x', instructions: 'y' })).toThrow(
      /slug/,
    );
    expect(() => subagent({ name: 'ok', description: '', instructions: 'y' })).toThrow(
      /description/,
    );
    expect(() =>
      subagent({ name: 'ok', description: 'd', instructions: 'y', maxTurns: 0 }),
    ).toThrow(/maxTurns/);
    expect(
      () =>
        new GeminiCliAgent({
          contentGenerator: new ScriptedModel([]),
          subagents: [{ name: 'fake' } as never],
        }),
    ).toThrow(/subagent/);
  });
});

describe('subagent.run(): a direct call with a typed output', () => {
  it('validates complete_task against the output schema and returns the value', async () => {
    const typed = subagent({
      name: 'typed',
      description: 'Lists defects',
      instructions: 'List defects.',
      tools: [],
      output: z.object({ defects: z.array(z.string()) }),
    });
    const model = new ScriptedModel([
      (request) => {
        expect(declaredTools(request)).toEqual(['complete_task']);
        return completeTurn({ result: { defects: 'not a list' } });
      },
      (request) => {
        const [response] = lastResponses(request) as Array<{ error?: string }>;
        expect(response?.error).toMatch(
          /^Output validation failed: \{"formErrors":\[\],"fieldErrors":\{"defects":/,
        );
        return completeTurn({ result: { defects: ['off by one'] } });
      },
    ]);
    await using agent = agentWith(model, { subagents: [typed] });
    const session = agent.session();
    const run = await typed.run('review this', { parent: session });
    expect(run.terminateReason).toBe('GOAL');
    expect(run.output).toEqual({ defects: ['off by one'] });
    expect(run.result).toBe('{\n  "defects": [\n    "off by one"\n  ]\n}');
    expect(run.usage.modelCalls).toBe(2);
    expect(session.usage.subagents?.['typed']?.modelCalls).toBe(2);
  });

  it('refuses a session whose agent does not have the subagent', async () => {
    const other = subagent({ name: 'other', description: 'd', instructions: 'i' });
    await using agent = agentWith(new ScriptedModel([]));
    await expect(other.run('x', { parent: agent.session() })).rejects.toThrow(
      /not registered with the session's agent/,
    );
  });
});

describe('subagent transcripts', () => {
  it('records each run in chats/<parentSessionId>/<agentId>.jsonl with kind subagent', async () => {
    const chatsDir = mkdtempSync(join(tmpdir(), 'subagent-chats-'));
    const model = new ScriptedModel([
      invokeTurn('reviewer', 'task'),
      completeTurn({ result: 'done' }),
      textTurn('ok'),
    ]);
    await using agent = agentWith(model, {
      persist: undefined,
      sessionStore: new FileSessionStore({ chatsDir }),
    });
    const session = agent.session();
    const events = await drain(session.sendStream('go'));
    const [agentId] = new Set(activities(events).map((a) => a.agentId));
    const file = join(chatsDir, session.id, `${agentId}.jsonl`);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ sessionId: agentId, kind: 'subagent' });
    expect(lines.some((l) => l['type'] === 'user')).toBe(true);
    expect(lines.some((l) => l['type'] === 'gemini')).toBe(true);
    // The subagent's session is not listed with the parent's sessions.
    expect((await agent.listSessions()).map((s) => s.sessionId)).toEqual([session.id]);
    expect(readdirSync(join(chatsDir, session.id))).toEqual([`${agentId}.jsonl`]);
  });
});
