import type { TokenUsage } from '../core/usage.js';
import type { ServerGeminiStreamEvent } from '../events.js';

/** Result of `GeminiCliSession.send`. */
export interface SendResult {
  /** The model's visible text: the `content` events, without the partial output of attempts a `retry` replaced. */
  text: string;
  /** Every event the stream yielded, in order. */
  events: ServerGeminiStreamEvent[];
  /** Tokens used by this call only. */
  usage: TokenUsage;
}
