import type { ServerGeminiStreamEvent } from '../events.js';

/**
 * The model's visible answer in a list of stream events: the `content` events, without the partial output of
 * attempts a mid-stream `retry` (`phase: 'stream'`) replaced. Model calls of one stream are separated by the
 * `tool_call_response` events of the calls between them, so a retry discards the content since the last of those.
 */
export function answerText(events: readonly ServerGeminiStreamEvent[]): string {
  const kept: string[] = [];
  let current: string[] = [];
  for (const event of events) {
    if (event.type === 'content') current.push(event.value);
    else if (event.type === 'retry' && event.value.phase === 'stream') current = [];
    else if (event.type === 'tool_call_response') {
      kept.push(...current);
      current = [];
    }
  }
  kept.push(...current);
  return kept.join('');
}
