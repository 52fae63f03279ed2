import type { Part } from '@google/genai';
import type { LoopEnvironment } from './loop-types.js';
import type { ModelTurnCollector } from './model-turn.js';
import { INTERRUPTED_PLACEHOLDER } from './request-contents.js';

/** True when the history ends with tool results (the model call answers them). */
export function endsWithToolResults(env: LoopEnvironment): boolean {
  const last = env.history.view().at(-1);
  return last?.role === 'user' && (last.parts ?? []).some((p) => p.functionResponse !== undefined);
}

/**
 * Commits the model turn of a call that did not complete — aborted, failed, or unusable after its retries — so
 * the prompt it answered keeps a turn of its own and is never merged into the next prompt. The turn holds the
 * visible text the user already saw (when aborted mid-stream) and gemini-cli's placeholder
 * `[The previous response was interrupted before it completed.]`; it is stored marked `interrupted`. Function
 * calls of the partial response are dropped: they never ran.
 */
export async function commitInterrupted(
  env: LoopEnvironment,
  partial: ModelTurnCollector | undefined,
): Promise<void> {
  const seen: Part[] = (partial?.content()?.parts ?? []).filter(
    (p) => typeof p.text === 'string' && p.thought !== true && p.functionCall === undefined,
  );
  await env.commit({
    kind: 'model',
    content: { role: 'model', parts: [...seen, { text: INTERRUPTED_PLACEHOLDER }] },
    timestamp: new Date().toISOString(),
    model: env.modelName,
    interrupted: true,
  });
}
