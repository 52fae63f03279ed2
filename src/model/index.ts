/**
 * `gemini-agent-sdk/model`: the model clients the agent builds (replay file, recorder, retries, the Gemini
 * adapter), for use on their own, and the model-id helpers.
 *
 * Every export is listed here by name; `src/index.test.ts` pins the list.
 */
export { createContentGenerator } from './create-content-generator.js';
export type { CreateContentGeneratorOptions } from './create-content-generator.js';
export { DEFAULT_MODEL, resolveModel } from './models.js';
export type { ContentGenerator } from './content-generator.js';
