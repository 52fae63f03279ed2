/**
 * A stand-in for Gemini so the worker example runs offline: a ContentGenerator whose every answer is a function of
 * the conversation it is sent, so any worker can continue any session (as a real model would). For
 * "Task <n>: set <key> to <value>." it looks the key up, then sets it (a call that needs approval), then reports.
 * A call answered as interrupted (its worker died) is simply made again.
 */
import type {
  Content,
  CountTokensResponse,
  GenerateContentParameters,
  GenerateContentResponse,
  Part,
} from '@google/genai';
import type { ContentGenerator } from 'gemini-agent-sdk';

const TASK = /Task (\d+): set (\S+) to (\S+)\./;

function textOf(content: Content): string {
  return (content.parts ?? []).map((p) => p.text ?? '').join('');
}

function reply(parts: Part[]): GenerateContentResponse {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
  } as unknown as GenerateContentResponse;
}

/** The next model turn for a conversation (exported for the tests). */
export function nextTurn(contents: readonly Content[]): Part[] {
  let at = -1;
  let task: RegExpExecArray | null = null;
  contents.forEach((c, i) => {
    const match = c.role === 'user' ? TASK.exec(textOf(c)) : null;
    if (match) {
      at = i;
      task = match;
    }
  });
  if (task === null) return [{ text: 'Send me a task: "Task 1: set colour to blue."' }];
  const [, n, key, value] = task as RegExpExecArray;
  let looked = false;
  let set: 'ok' | 'denied' | undefined;
  let attempts = 0;
  for (const c of contents.slice(at + 1)) {
    for (const p of c.parts ?? []) {
      if (p.functionCall?.name === 'set_value') attempts++;
      const r = p.functionResponse;
      if (r === undefined) continue;
      const error = r.response?.['error'];
      const failed = error !== undefined;
      const interrupted = failed && /interrupted/i.test(String(error));
      if (r.name === 'lookup' && !failed) looked = true;
      if (r.name === 'set_value' && !interrupted) set = failed ? 'denied' : 'ok';
    }
  }
  if (set === 'ok') return [{ text: `Task ${n} done: ${key} is now ${value}.` }];
  if (set === 'denied') return [{ text: `Task ${n}: ${key} was not changed (not approved).` }];
  if (!looked) return [{ functionCall: { name: 'lookup', args: { key } } }];
  return [
    { functionCall: { name: 'set_value', args: { key, value, op: `${n}.${attempts + 1}` } } },
  ];
}

/** The demo model. `delayMs` simulates the latency of a model call. */
export function demoModel(delayMs = 20): ContentGenerator {
  const answer = async (params: GenerateContentParameters, signal?: AbortSignal) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, delayMs);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    return reply(nextTurn((params.contents ?? []) as Content[]));
  };
  return {
    async generateContentStream(params, signal) {
      const response = await answer(params, signal);
      return (async function* () {
        yield response;
      })();
    },
    generateContent: (params, signal) => answer(params, signal),
    async countTokens(params): Promise<CountTokensResponse> {
      return { totalTokens: Math.ceil(JSON.stringify(params.contents ?? '').length / 4) };
    },
  };
}
