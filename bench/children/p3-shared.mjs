/** What both P3 clients share: the prompt, instructions, model and the trivial tool's action. */
export const PROMPT = 'Call tick with i = 0, 1, 2, … until the counter is done, then say done.';
export const INSTRUCTIONS = 'You are a benchmark driver. Call the tick tool when asked.';
export const MODEL = 'gemini-2.5-flash';
export const TOOL_NAME = 'tick';

/** The trivial tool: returns a short string. */
export function tickAction(i) {
  return `tick ${i} ok`;
}
