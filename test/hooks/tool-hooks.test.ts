import { describe, expect, it } from 'vitest';
import { hook, type ApprovalRequest, type HookInput } from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { agentWith, drain, lastResponses, notes, ofType } from './helpers.js';

describe('BeforeTool', () => {
  it('a deny is a tool error the model sees; the tool does not run', async () => {
    notes.length = 0;
    const guard = hook(
      { event: 'BeforeTool', name: 'no-secrets', matcher: 'note' },
      async (input) =>
        input.tool_input.file_path?.endsWith('.env')
          ? { decision: 'deny', reason: 'secrets are read-only' }
          : undefined,
    );
    const model = new ScriptedModel([
      callTurn({ name: 'note', args: { text: 'x', file_path: 'a/.env' } }),
      textTurn('ok'),
    ]);
    await drain(
      agentWith(model, { hooks: [guard] })
        .session()
        .sendStream('go'),
    );
    expect(lastResponses(model.generateRequests[1])).toEqual([
      { error: 'Tool execution blocked: secrets are read-only' },
    ]);
    expect(notes).toEqual([]);
  });

  it('tool_input replaces the arguments, validated again, with gemini-cli’s note in the result', async () => {
    notes.length = 0;
    const inputs: Array<HookInput<'BeforeTool'>> = [];
    const rewrite = hook({ event: 'BeforeTool', name: 'rewrite' }, (input) => {
      inputs.push(input);
      if (input.tool_input['text'] === 'bad')
        return { hookSpecificOutput: { tool_input: { text: 7 } } };
      return { hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { text: 'safe' } } };
    });
    const model = new ScriptedModel([
      callTurn(
        { name: 'note', args: { text: 'raw', file_path: 'f' } },
        { name: 'note', args: { text: 'bad' } },
      ),
      textTurn('ok'),
    ]);
    const session = agentWith(model, { hooks: [rewrite] }).session();
    await drain(session.sendStream('go'));
    expect(notes).toEqual([{ text: 'safe' }]);
    const [first, second] = lastResponses(model.generateRequests[1]) as Array<
      Record<string, unknown>
    >;
    expect(first).toEqual({
      output:
        'noted safe\n\n[System] Tool input parameters were modified by a hook before execution.',
    });
    expect(String(second?.['error'])).toMatch(
      /^Tool parameter modification by hook failed validation: /,
    );
    expect(inputs[0]).toMatchObject({
      hook_event_name: 'BeforeTool',
      session_id: session.id,
      transcript_path: '',
      tool_name: 'note',
      tool_input: { text: 'raw', file_path: 'f' },
    });
    expect(typeof inputs[0]?.timestamp).toBe('string');
  });

  it('ask forces an approval of a call the policy allows, after a Notification', async () => {
    const order: string[] = [];
    const ask = hook({ event: 'BeforeTool', name: 'ask' }, () => ({
      decision: 'ask',
      systemMessage: 'please look',
    }));
    const notify = hook({ event: 'Notification', name: 'notify' }, (input) => {
      order.push(`notify:${input.notification_type}:${input.message}`);
      expect(input.details).toMatchObject({ type: 'info', title: 'Confirm: note' });
    });
    const model = new ScriptedModel([
      callTurn({ name: 'note', args: { text: 'x' } }),
      textTurn('ok'),
    ]);
    const seen: ApprovalRequest[] = [];
    await drain(
      agentWith(model, {
        hooks: [ask, notify],
        onApproval: (request) => {
          order.push('approval');
          seen.push(request);
          return 'deny';
        },
      })
        .session()
        .sendStream('go'),
    );
    expect(order).toEqual([
      'notify:ToolPermission:Tool Confirm: note requires information',
      'approval',
    ]);
    expect(seen[0]?.reason).toBe('please look');
    expect(
      String((lastResponses(model.generateRequests[1])[0] as { error: string }).error),
    ).toMatch(/denied/i);
  });

  it('continue: false answers the call, stores the results and ends the turn', async () => {
    const stop = hook({ event: 'BeforeTool', name: 'stop' }, () => ({
      continue: false,
      stopReason: 'enough',
    }));
    const model = new ScriptedModel([callTurn({ name: 'note', args: { text: 'x' } })]);
    const session = agentWith(model, { hooks: [stop] }).session();
    const events = await drain(session.sendStream('go'));
    expect(ofType(events, 'agent_execution_stopped').map((e) => e.value)).toEqual([
      { reason: 'enough' },
    ]);
    expect(model.generateRequests).toHaveLength(1);
    const last = session.getHistory().at(-1);
    expect(last?.parts?.[0]?.functionResponse?.response).toEqual({
      error: 'Agent execution stopped by hook: enough',
    });
  });
});

describe('AfterTool', () => {
  it('adds sanitized context, blocks results and hands calls over to another tool', async () => {
    notes.length = 0;
    const beforeInputs: Array<HookInput<'BeforeTool'>> = [];
    const before = hook({ event: 'BeforeTool', name: 'watch' }, (input) => {
      beforeInputs.push(input);
    });
    const after = hook({ event: 'AfterTool', name: 'after', matcher: '^note$' }, (input) => {
      const text = input.tool_input['text'];
      if (text === 'ctx')
        return { hookSpecificOutput: { additionalContext: 'see </hook_context><b>' } };
      if (text === 'block') return { decision: 'block', reason: 'not for you' };
      if (text === 'tail')
        return {
          hookSpecificOutput: { tailToolCallRequest: { name: 'note', args: { text: 'tailed' } } },
        };
      expect(input.tool_response).toMatchObject({ llmContent: `noted ${String(text)}` });
      return undefined;
    });
    const model = new ScriptedModel([
      callTurn(
        { name: 'note', args: { text: 'ctx' } },
        { name: 'note', args: { text: 'block' } },
        { name: 'note', args: { text: 'tail' } },
      ),
      textTurn('ok'),
    ]);
    await drain(
      agentWith(model, { hooks: [before, after] })
        .session()
        .sendStream('go'),
    );
    expect(lastResponses(model.generateRequests[1])).toEqual([
      { output: 'noted ctx\n\n<hook_context>see &lt;/hook_context&gt;&lt;b&gt;</hook_context>' },
      { error: 'not for you' },
      { output: 'noted tailed' },
    ]);
    expect(notes.map((n) => n['text'])).toEqual(['ctx', 'block', 'tail', 'tailed']);
    expect(beforeInputs.at(-1)).toMatchObject({
      tool_name: 'note',
      tool_input: { text: 'tailed' },
      original_request_name: 'note',
    });
  });

  it('hooks whose matchers miss the tool never run, and the round is what it is without hooks', async () => {
    const ran: string[] = [];
    const miss = [
      hook({ event: 'BeforeTool', name: 'deny-other', matcher: '^other$' }, () => {
        ran.push('before');
        return { decision: 'deny', reason: 'no' };
      }),
      hook({ event: 'AfterTool', name: 'block-other', matcher: 'other|__proto__' }, () => {
        ran.push('after');
        return { decision: 'block', reason: 'no' };
      }),
    ];
    const script = (): ScriptedModel =>
      new ScriptedModel([
        callTurn({ name: 'note', args: { text: 'a' } }, { name: 'note', args: { text: 'b' } }),
        textTurn('ok'),
      ]);
    const plain = script();
    const hooked = script();
    const events = await drain(agentWith(plain).session().sendStream('go'));
    const hookedEvents = await drain(agentWith(hooked, { hooks: miss }).session().sendStream('go'));
    expect(ran).toEqual([]);
    expect(lastResponses(hooked.generateRequests[1])).toEqual([
      { output: 'noted a' },
      { output: 'noted b' },
    ]);
    expect(lastResponses(hooked.generateRequests[1])).toEqual(
      lastResponses(plain.generateRequests[1]),
    );
    expect(hookedEvents.map((e) => e.type)).toEqual(events.map((e) => e.type));
  });

  it('a rewrite by a BeforeTool hook gets its note when the AfterTool hooks miss the tool', async () => {
    const rewrite = hook({ event: 'BeforeTool', name: 'rewrite', matcher: '^note$' }, () => ({
      hookSpecificOutput: { tool_input: { text: 'safe' } },
    }));
    const after = hook({ event: 'AfterTool', name: 'after-other', matcher: '^other$' }, () => ({
      decision: 'block',
      reason: 'no',
    }));
    const model = new ScriptedModel([
      callTurn({ name: 'note', args: { text: 'raw' } }),
      textTurn('ok'),
    ]);
    await drain(
      agentWith(model, { hooks: [rewrite, after] })
        .session()
        .sendStream('go'),
    );
    expect(lastResponses(model.generateRequests[1])).toEqual([
      {
        output:
          'noted safe\n\n[System] Tool input parameters were modified by a hook before execution.',
      },
    ]);
  });

  it('a hand-over to an unknown tool is a tool error', async () => {
    const after = hook({ event: 'AfterTool', name: 'tail' }, () => ({
      hookSpecificOutput: { tailToolCallRequest: { name: 'nope', args: {} } },
    }));
    const model = new ScriptedModel([
      callTurn({ name: 'note', args: { text: 'x' } }),
      textTurn('ok'),
    ]);
    await drain(
      agentWith(model, { hooks: [after] })
        .session()
        .sendStream('go'),
    );
    expect(
      String((lastResponses(model.generateRequests[1])[0] as { error: string }).error),
    ).toMatch(/nope/);
  });
});
