import { z } from 'zod';
import { DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD } from '../context/tool-output-truncation.js';
import { tokenLimit } from '../model/models.js';
import type { LoadedSettings } from '../settings/load-settings.js';

/** gemini-cli's default compression threshold: half of the model's context window. */
export const DEFAULT_COMPRESSION_THRESHOLD = 0.5;

/**
 * How a session keeps its history within the model's context window (see docs/context.md). Each value defaults to
 * gemini-cli's settings key, then to gemini-cli's default.
 */
export interface ContextOptions {
  /**
   * Compress the history automatically once the last request's prompt reached this fraction of the context window
   * (0 < x ≤ 1; settings `model.compressionThreshold`, default 0.5). `false` turns automatic compression off;
   * `session.compress()` still works.
   */
  compressionThreshold?: number | false;
  /**
   * Characters of one tool result the model sees (settings `tools.truncateToolOutputThreshold`, default 40,000).
   * A longer result is saved to a file and the model gets its head, its tail and the file's path. `0` turns it off.
   */
  truncateToolOutputThreshold?: number;
  /** The model's context window in tokens (default gemini-cli's `tokenLimit`: 1,048,576; Gemma 4: 256,000). */
  tokenLimit?: number;
}

/** The `context` option's schema (strict: a misspelt key is reported). */
export const ContextOptionsSchema = z
  .object({
    compressionThreshold: z
      .union([z.literal(false), z.number().gt(0).max(1)], {
        error: 'expected a fraction of the context window (0 < x ≤ 1) or false',
      })
      .optional(),
    truncateToolOutputThreshold: z
      .number({ error: 'expected a number of characters ≥ 0' })
      .int({ error: 'expected a number of characters ≥ 0' })
      .min(0, { error: 'expected a number of characters ≥ 0' })
      .optional(),
    tokenLimit: z
      .number({ error: 'expected a positive integer' })
      .int({ error: 'expected a positive integer' })
      .min(1, { error: 'expected a positive integer' })
      .optional(),
  })
  .strict();

/** The context settings a session runs with. */
export interface ContextSettings {
  /** Fraction of the window that triggers automatic compression; undefined: never automatically. */
  compressionThreshold: number | undefined;
  truncateToolOutputThreshold: number;
  tokenLimit(model: string): number;
}

function settingNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The `context` option over gemini-cli's settings over gemini-cli's defaults. */
export function contextSettings(
  option: ContextOptions | undefined,
  settings: LoadedSettings,
): ContextSettings {
  const merged = settings.merged;
  const fromSettings = settingNumber(merged.model?.compressionThreshold);
  const threshold =
    option?.compressionThreshold === false
      ? undefined
      : (option?.compressionThreshold ??
        (fromSettings !== undefined && fromSettings > 0
          ? fromSettings
          : DEFAULT_COMPRESSION_THRESHOLD));
  const truncate =
    option?.truncateToolOutputThreshold ??
    settingNumber(merged.tools?.truncateToolOutputThreshold) ??
    DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD;
  const limit = option?.tokenLimit;
  return {
    compressionThreshold: threshold,
    truncateToolOutputThreshold: Math.max(0, truncate),
    tokenLimit: (model) => limit ?? tokenLimit(model),
  };
}
