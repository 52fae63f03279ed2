import type { Part } from '@google/genai';
import type { Turn, TurnEvents, TurnInterceptor } from '../core/interceptors.js';
import type { SessionHandle } from '../core/session-context.js';
import type { ServerGeminiStreamEvent } from '../events.js';
import {
  effectiveReason,
  isBlocking,
  sanitizedAdditionalContext,
  stopsExecution,
} from './hook-output.js';
import {
  lastUserPrompt,
  promptText,
  scopeOf,
  sessionContextOf,
  type HookSessionState,
} from './hook-session.js';
import type { HookSystem } from './hook-system.js';
import type { AnyHookOutput, HookEventName, HookInputFields } from './hook-types.js';
import { blockedEvent, stoppedEvent } from './tool-hooks.js';

/** How many times AfterAgent hooks may send the agent back to work in one turn (gemini-cli's turn budget). */
export const MAX_AFTER_AGENT_RETRIES = 100;

type StateOf = (session: SessionHandle) => HookSessionState | undefined;

/**
 * BeforeAgent and AfterAgent around each turn, and SessionStart's context before the first prompt, as gemini-cli's
 * client does:
 *
 * - SessionStart's `additionalContext` goes before the next prompt as `<hook_context>…</hook_context>` (headless).
 * - BeforeAgent (once per prompt): `continue: false` stores the prompt and ends the turn
 *   (`agent_execution_stopped`); `deny`/`block` drops the prompt (`agent_execution_blocked`); `additionalContext`
 *   is added to the prompt as a `<hook_context>` part.
 * - AfterAgent (when the turn ends with the model's answer — not paused, cancelled or stopped by a tool hook):
 *   `continue: false` → `agent_execution_stopped`; `deny`/`block` → `agent_execution_blocked`, then the reason is
 *   sent as a new prompt (`stop_hook_active: true`, BeforeAgent fires again).
 */
export function turnInterceptor(system: HookSystem, stateOf: StateOf): TurnInterceptor {
  return (turn, next) => {
    const state = stateOf(turn.session);
    const active =
      system.has('BeforeAgent') || system.has('AfterAgent') || state?.startContext !== undefined;
    if (!active || state === undefined) return next(turn);
    return agentTurn(turn, next, system, state);
  };
}

async function* agentTurn(
  turn: Turn,
  next: (turn?: Turn) => TurnEvents,
  system: HookSystem,
  state: HookSessionState,
): TurnEvents {
  const signal = turn.signal ?? new AbortController().signal;
  const fire = async function* <E extends HookEventName>(
    event: E,
    fields: HookInputFields[E],
  ): AsyncGenerator<ServerGeminiStreamEvent, AnyHookOutput | undefined> {
    if (!system.has(event)) return undefined;
    const buffered: ServerGeminiStreamEvent[] = [];
    const ctx = sessionContextOf(state, signal);
    const output = await system.fire(
      event,
      fields,
      scopeOf(state, ctx, (e) => buffered.push(e)),
    );
    yield* buffered;
    return output;
  };

  const original = turn.prompt ? undefined : lastUserPrompt(turn.session.getHistory());
  let originalText = original;
  let prompt: Part[] | undefined = turn.prompt;
  const responses: string[] = [];
  for (let retry = 0; ; retry++) {
    if (prompt !== undefined) {
      if (state.startContext !== undefined) {
        // gemini-cli's headless run: `<hook_context>…</hook_context>\n\n<prompt>`, one text.
        const wrapped = `<hook_context>${state.startContext}</hook_context>`;
        const [first, ...rest] = prompt;
        prompt =
          typeof first?.text === 'string' && first.thought !== true
            ? [{ ...first, text: `${wrapped}\n\n${first.text}` }, ...rest]
            : [{ text: wrapped }, ...prompt];
        state.startContext = undefined;
      }
      originalText ??= promptText(prompt);
      const before = yield* fire('BeforeAgent', { prompt: promptText(prompt) });
      if (stopsExecution(before)) {
        yield stoppedEvent(before as AnyHookOutput);
        turn.stop();
        yield* next({ ...turn, prompt });
        return;
      }
      if (isBlocking(before)) {
        yield blockedEvent(before as AnyHookOutput);
        return;
      }
      const context = sanitizedAdditionalContext(before);
      if (context) prompt = [...prompt, { text: `<hook_context>${context}</hook_context>` }];
    }

    state.toolStopped = false;
    const ended = yield* runLoop(next({ ...turn, prompt }), responses);
    if (!ended || state.toolStopped || signal.aborted || !system.has('AfterAgent')) return;

    const after = yield* fire('AfterAgent', {
      prompt: originalText ?? '',
      prompt_response: responses.join('\n') || '[no response text]',
      stop_hook_active: retry > 0,
    });
    if (after === undefined) return;
    const acts = stopsExecution(after) || isBlocking(after);
    if (acts && after.hookSpecificOutput?.['clearContext'] === true) {
      yield {
        type: 'warning',
        value: {
          code: 'HOOK_CLEAR_CONTEXT_IGNORED',
          message:
            "An AfterAgent hook asked to clear the conversation (clearContext); the SDK keeps a session's " +
            'history, so it was kept. Start a new session for a fresh context.',
          source: 'hooks',
        },
      };
    }
    if (stopsExecution(after)) {
      yield stoppedEvent(after);
      return;
    }
    if (!isBlocking(after)) return;
    const reason = effectiveReason(after);
    yield blockedEvent(after, reason);
    if (retry >= MAX_AFTER_AGENT_RETRIES) {
      yield {
        type: 'warning',
        value: {
          code: 'HOOK_RETRY_LIMIT',
          message: `AfterAgent hooks blocked ${MAX_AFTER_AGENT_RETRIES + 1} times in a row; the turn ends here.`,
          source: 'hooks',
        },
      };
      return;
    }
    prompt = [{ text: reason }];
  }
}

/**
 * Passes one loop run's events through, collecting the model's text per model call. Returns true when the run
 * ended with the model's answer (not paused for approvals, not cancelled).
 */
async function* runLoop(
  events: TurnEvents,
  responses: string[],
): AsyncGenerator<ServerGeminiStreamEvent, boolean> {
  let ended = true;
  let text = '';
  const flush = (): void => {
    if (text !== '') responses.push(text);
    text = '';
  };
  for await (const event of events) {
    switch (event.type) {
      case 'content':
        text += event.value;
        break;
      case 'finished':
        flush();
        break;
      case 'retry':
        // A re-sent model call drops the failed attempt's partial answer.
        if (event.value.phase === 'stream') text = '';
        break;
      case 'approval_required':
      case 'user_cancelled':
        ended = false;
        break;
      default:
        break;
    }
    yield event;
  }
  flush();
  return ended;
}
