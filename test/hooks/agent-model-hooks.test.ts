import { describe, expect, it } from 'vitest';
import { hook, type HookInput } from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { HOOK_CONTEXT_SECTION } from '../../src/hooks/hooks-feature.js';
import { agentWith, drain, lastUserText, ofType } from './helpers.js';

function systemText(model: ScriptedModel): string {
  const instruction = model.generateRequests[0]?.config?.systemInstruction;
  if (typeof instruction === 'string') return instruction;
  const parts = (instruction as { parts?: Array<{ text?: string }> } | undefined)?.parts ?? [];
  return parts.map((p) => p.text ?? '').join('');
}

describe('BeforeAgent / AfterAgent', () => {
  it('additionalContext joins the prompt as <hook_context>', async () => {
    const inputs: Array<HookInput<'BeforeAgent'>> = [];
    const before = hook({ event: 'BeforeAgent', name: 'ctx' }, (input) => {
      inputs.push(input);
      return { hookSpecificOutput: { additionalContext: 'branch: main' } };
    });
    const model = new ScriptedModel([textTurn('ok')]);
    await drain(
      agentWith(model, { hooks: [before] })
        .session()
        .sendStream('hello'),
    );
    expect(inputs[0]?.prompt).toBe('hello');
    expect(lastUserText(model.generateRequests[0])).toBe(
      'hello<hook_context>branch: main</hook_context>',
    );
    // The model is told what <hook_context> is, only when a hook can add one.
    expect(systemText(model)).toContain(HOOK_CONTEXT_SECTION);
    const plain = new ScriptedModel([textTurn('ok')]);
    const model2 = hook({ event: 'BeforeModel', name: 'quiet' }, () => undefined);
    await drain(
      agentWith(plain, { hooks: [model2] })
        .session()
        .sendStream('hello'),
    );
    expect(systemText(plain)).not.toContain('<hook_context>');
  });

  it('block drops the prompt; continue: false keeps it; neither calls the model', async () => {
    const gate = hook({ event: 'BeforeAgent', name: 'gate' }, (input) =>
      input.prompt === 'drop'
        ? { decision: 'deny', reason: 'no', systemMessage: 'dropped' }
        : { continue: false, stopReason: 'kept' },
    );
    const model = new ScriptedModel([]);
    const session = agentWith(model, { hooks: [gate] }).session();
    const blocked = await drain(session.sendStream('drop'));
    expect(ofType(blocked, 'agent_execution_blocked').map((e) => e.value)).toEqual([
      { reason: 'no', systemMessage: 'dropped' },
    ]);
    expect(ofType(blocked, 'hook_system_message').map((e) => e.value)).toEqual([
      { hookName: 'gate', eventName: 'BeforeAgent', message: 'dropped' },
    ]);
    expect(session.getHistory()).toEqual([]);
    const stopped = await drain(session.sendStream('keep'));
    expect(ofType(stopped, 'agent_execution_stopped').map((e) => e.value.reason)).toEqual(['kept']);
    expect(session.getHistory()).toEqual([{ role: 'user', parts: [{ text: 'keep' }] }]);
    expect(model.generateRequests).toHaveLength(0);
  });

  it('an AfterAgent block sends the reason as a new prompt, with stop_hook_active', async () => {
    const afterInputs: Array<HookInput<'AfterAgent'>> = [];
    const beforeInputs: string[] = [];
    const before = hook({ event: 'BeforeAgent', name: 'b' }, (input) => {
      beforeInputs.push(input.prompt);
    });
    const after = hook({ event: 'AfterAgent', name: 'check' }, (input) => {
      afterInputs.push(input);
      return input.stop_hook_active
        ? undefined
        : { decision: 'block', reason: 'Run the tests too.' };
    });
    const model = new ScriptedModel([
      callTurn({ name: 'note', args: { text: 'x' } }),
      textTurn('Done.'),
      textTurn('Tests pass.'),
    ]);
    const events = await drain(
      agentWith(model, { hooks: [before, after] })
        .session()
        .sendStream('fix it'),
    );
    expect(ofType(events, 'agent_execution_blocked').map((e) => e.value.reason)).toEqual([
      'Run the tests too.',
    ]);
    expect(lastUserText(model.generateRequests[2])).toBe('Run the tests too.');
    expect(beforeInputs).toEqual(['fix it', 'Run the tests too.']);
    expect(afterInputs.map((i) => [i.prompt, i.prompt_response, i.stop_hook_active])).toEqual([
      ['fix it', 'Done.', false],
      ['fix it', 'Done.\nTests pass.', true],
    ]);
  });
});

describe('BeforeModel / BeforeToolSelection / AfterModel', () => {
  it('llm_request rewrites model, settings and messages; tool selection sets toolConfig', async () => {
    const inputs: Array<HookInput<'BeforeModel'>> = [];
    const rewrite = hook({ event: 'BeforeModel', name: 'rewrite' }, (input) => {
      inputs.push(input);
      return {
        hookSpecificOutput: {
          llm_request: {
            model: 'gemini-2.5-flash',
            config: { temperature: 0.1 },
            messages: [{ role: 'user', content: 'rewritten prompt' }],
          },
        },
      };
    });
    const pickA = hook({ event: 'BeforeToolSelection', name: 'a' }, (input) => {
      expect(input.llm_request.messages.at(-1)?.content).toBe('rewritten prompt');
      return {
        hookSpecificOutput: { toolConfig: { mode: 'ANY', allowedFunctionNames: ['note'] } },
      };
    });
    const pickB = hook({ event: 'BeforeToolSelection', name: 'b' }, () => ({
      hookSpecificOutput: { toolConfig: { mode: 'AUTO', allowedFunctionNames: ['other'] } },
    }));
    const model = new ScriptedModel([textTurn('ok')]);
    await drain(
      agentWith(model, {
        hooks: [rewrite, pickA, pickB],
        generationConfig: { temperature: 0.9, topK: 3 },
      })
        .session()
        .sendStream('original'),
    );
    expect(inputs[0]?.llm_request.config).toMatchObject({ temperature: 0.9, topK: 3 });
    const messages = inputs[0]?.llm_request.messages ?? [];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe('user');
    expect(messages[0]?.content).toMatch(
      /^\s*<session_context>[\s\S]*<\/session_context>original$/,
    );
    const sent = model.generateRequests[0];
    expect(sent?.model).toBe('gemini-2.5-flash');
    expect(sent?.config?.temperature).toBe(0.1);
    expect(sent?.config?.topK).toBeUndefined();
    expect(lastUserText(sent)).toBe('rewritten prompt');
    expect(sent?.config?.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['note', 'other'] },
    });
    expect(sent?.config?.systemInstruction).toBeDefined();
  });

  it('a block answers with the synthetic response instead of calling the model', async () => {
    const cache = hook({ event: 'BeforeModel', name: 'cache' }, () => ({
      decision: 'block',
      reason: 'cached',
      hookSpecificOutput: {
        llm_response: { candidates: [{ content: { role: 'model', parts: ['From the cache.'] } }] },
      },
    }));
    const model = new ScriptedModel([]);
    const session = agentWith(model, { hooks: [cache] }).session();
    const events = await drain(session.sendStream('hi'));
    expect(ofType(events, 'agent_execution_blocked').map((e) => e.value.reason)).toEqual([
      'cached',
    ]);
    expect(
      ofType(events, 'content')
        .map((e) => e.value)
        .join(''),
    ).toBe('From the cache.');
    expect(model.generateRequests).toHaveLength(0);
    expect(session.getHistory().at(-1)).toEqual({
      role: 'model',
      parts: [{ text: 'From the cache.' }],
    });
  });

  it('continue: false before the model ends the turn without calling it', async () => {
    const stop = hook({ event: 'BeforeModel', name: 'stop' }, () => ({ continue: false }));
    const model = new ScriptedModel([]);
    const events = await drain(
      agentWith(model, { hooks: [stop] })
        .session()
        .sendStream('hi'),
    );
    expect(ofType(events, 'agent_execution_stopped').map((e) => e.value.reason)).toEqual([
      'No reason provided',
    ]);
    expect(ofType(events, 'error')).toEqual([]);
    expect(model.generateRequests).toHaveLength(0);
  });

  it('AfterModel replaces a chunk’s text; a block keeps the chunk and ends the response', async () => {
    const censor = hook({ event: 'AfterModel', name: 'censor' }, (input) => {
      const text = input.llm_response.text ?? '';
      if (text.includes('password'))
        return {
          hookSpecificOutput: {
            llm_response: { candidates: [{ content: { role: 'model', parts: ['[redacted]'] } }] },
          },
        };
      if (text.includes('halt')) return { decision: 'block', reason: 'halted' };
      return undefined;
    });
    const model = new ScriptedModel([textTurn('the password is 1'), textTurn('halt here')]);
    const session = agentWith(model, { hooks: [censor] }).session();
    const first = await drain(session.sendStream('a'));
    expect(ofType(first, 'content').map((e) => e.value)).toEqual(['[redacted]']);
    const second = await drain(session.sendStream('b'));
    expect(ofType(second, 'agent_execution_blocked').map((e) => e.value.reason)).toEqual([
      'halted',
    ]);
    expect(ofType(second, 'content').map((e) => e.value)).toEqual(['halt here']);
  });
});

describe('SessionStart / SessionEnd', () => {
  it('fires startup then resume, puts additionalContext before the first prompt, and SessionEnd on close', async () => {
    const seen: string[] = [];
    const start = hook({ event: 'SessionStart', name: 'start', matcher: 'startup' }, (input) => {
      seen.push(`start:${input.source}`);
      return { hookSpecificOutput: { additionalContext: 'You are in repo X.' } };
    });
    const resume = hook({ event: 'SessionStart', name: 'resume', matcher: 'resume' }, (input) => {
      seen.push(`resume:${input.source}`);
    });
    const end = hook({ event: 'SessionEnd', name: 'end' }, (input) => {
      seen.push(`end:${input.reason}`);
    });
    const model = new ScriptedModel([textTurn('one'), textTurn('two')]);
    const agent = agentWith(model, {
      hooks: [start, resume, end],
      persist: true,
      sessionStore: undefined,
    });
    const session = agent.session();
    await drain(session.sendStream('first'));
    expect(lastUserText(model.generateRequests[0])).toBe(
      '<hook_context>You are in repo X.</hook_context>\n\nfirst',
    );
    await session.close();
    const again = await agent.resumeSession(session.id);
    await drain(again.sendStream('second'));
    await again.close();
    expect(seen).toEqual(['start:startup', 'end:exit', 'resume:resume', 'end:exit']);
  });
});
