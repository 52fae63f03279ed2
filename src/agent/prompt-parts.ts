import type { Part } from '@google/genai';
import { ConfigurationError } from '../errors.js';

/**
 * The parts of a prompt given to `sendStream`: a string becomes one text part; a Part[] is copied.
 *
 * @throws ConfigurationError for an empty prompt.
 */
export function toParts(prompt: string | Part[]): Part[] {
  if (typeof prompt === 'string') {
    if (prompt === '') {
      throw new ConfigurationError(
        'The prompt is empty: pass a non-empty string or at least one Part.',
      );
    }
    return [{ text: prompt }];
  }
  if (!Array.isArray(prompt) || prompt.length === 0) {
    throw new ConfigurationError(
      'The prompt must be a non-empty string or a non-empty array of Parts.',
    );
  }
  return structuredClone(prompt);
}
