import type { GenerateContentConfig, ThinkingConfig } from '@google/genai';

/** The generation settings of a chat request, without what each call sets itself. */
export type ChatGenerationConfig = Omit<
  GenerateContentConfig,
  'systemInstruction' | 'tools' | 'abortSignal'
>;

/** gemini-cli's `chat-base` settings: every chat request starts from these. */
const CHAT_BASE = { temperature: 1, topP: 0.95, topK: 64 } as const;

/** Models gemini-cli 0.61 configures as `chat-base-2.5` (a thinking budget). */
const GEMINI_2_5 = new Set(['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite']);

/** Models gemini-cli 0.61 configures as `chat-base-3` (a thinking level). */
const GEMINI_3 = new Set([
  'gemini-3-pro-preview',
  'gemini-3-flash-preview',
  'gemini-3.1-pro-preview',
  'gemini-3.1-pro-preview-customtools',
  'gemini-3.1-flash-lite-preview',
  'gemini-3.1-flash-lite',
  'gemini-3.5-flash-lite',
  'gemini-3.5-flash',
  'gemini-3.8-flash',
  'gemma-4-31b-it',
  'gemma-4-26b-a4b-it',
]);

/**
 * The generationConfig gemini-cli 0.61 sends for a model's chat requests: `temperature 1, topP 0.95, topK 64` and
 * thoughts included, plus `thinkingBudget: 8192` for the 2.5 models or `thinkingLevel: 'HIGH'` for the 3 models
 * (other models get the base settings only).
 */
export function defaultGenerationConfig(model: string): ChatGenerationConfig {
  const thinkingConfig: ThinkingConfig = { includeThoughts: true };
  if (GEMINI_2_5.has(model)) thinkingConfig.thinkingBudget = 8192;
  else if (GEMINI_3.has(model))
    thinkingConfig.thinkingLevel = 'HIGH' as ThinkingConfig['thinkingLevel'];
  return { ...CHAT_BASE, thinkingConfig };
}

/**
 * The defaults for `model` with the developer's settings on top; `thinkingConfig` merges key by key, so
 * `{ thinkingConfig: { thinkingBudget: 0 } }` keeps `includeThoughts`.
 */
export function chatGenerationConfig(
  model: string,
  extra: ChatGenerationConfig | undefined,
): ChatGenerationConfig {
  const base = defaultGenerationConfig(model);
  if (extra === undefined) return base;
  const thinking =
    base.thinkingConfig || extra.thinkingConfig
      ? { thinkingConfig: { ...base.thinkingConfig, ...extra.thinkingConfig } }
      : {};
  return { ...base, ...extra, ...thinking };
}
