import type { TokenUsage } from '../core/usage.js';
import type { ServerGeminiStreamEvent } from '../events.js';

/** Result of `GeminiCliSession.send`. */
export interface SendResult {
  /** The concatenated `content` events (the model's visible text). */
  text: string;
  /** Every event the stream yielded, in order. */
  events: ServerGeminiStreamEvent[];
  /** Tokens used by this call only. */
  usage: TokenUsage;
}
