import type { Content, GenerateContentResponseUsageMetadata } from '@google/genai';
import type { ToolCallResponseInfo } from '../events.js';

/**
 * One completed message of a session, as the loop hands it to persistence (awaited before the next model
 * call). `content` is exactly what was appended to the history.
 */
export interface SessionLogEntry {
  /** `user`: a prompt; `model`: a model turn; `tool_results`: the answers to the previous turn's calls. */
  kind: 'user' | 'model' | 'tool_results';
  content: Content;
  /** ISO time the message completed. */
  timestamp: string;
  /** Model id (model turns). */
  model?: string;
  /** Usage reported for the model call (model turns). */
  usage?: GenerateContentResponseUsageMetadata;
  /** The tool responses, with display text and errors (tool_results). */
  responses?: ToolCallResponseInfo[];
}
