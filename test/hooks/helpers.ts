import type { Content, GenerateContentParameters } from '@google/genai';
import {
  GeminiCliAgent,
  tool,
  z,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import type { ScriptedModel } from '../../src/testing/index.js';

/** Every event of a stream. */
export async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The events of one type. */
export function ofType<T extends ServerGeminiStreamEvent['type']>(
  events: readonly ServerGeminiStreamEvent[],
  type: T,
): Array<Extract<ServerGeminiStreamEvent, { type: T }>> {
  return events.filter((e): e is Extract<ServerGeminiStreamEvent, { type: T }> => e.type === type);
}

/** The function responses of the last content of a request. */
export function lastResponses(request: GenerateContentParameters | undefined): unknown[] {
  const last = (request?.contents as Content[] | undefined)?.at(-1);
  return (last?.parts ?? []).map((p) => p.functionResponse?.response);
}

/** The text of a request's last user content, without the `<session_context>` part the first turn starts with. */
export function lastUserText(request: GenerateContentParameters | undefined): string {
  const last = (request?.contents as Content[] | undefined)?.at(-1);
  return (last?.parts ?? [])
    .map((p) => p.text ?? '')
    .filter((text) => !text.startsWith('<session_context>'))
    .join('');
}

/** What the `note` tool received. */
export const notes: Array<Record<string, unknown>> = [];

/** A custom tool that records its arguments. */
export const note = tool(
  {
    name: 'note',
    description: 'Writes a note',
    inputSchema: z.object({ text: z.string(), file_path: z.string().optional() }),
  },
  (args) => {
    notes.push(args);
    return `noted ${args.text}`;
  },
);

/** An agent on a scripted model with the `note` tool, no built-in tools, nothing persisted, no settings files. */
export function agentWith(
  model: ScriptedModel,
  options: GeminiCliAgentOptions = {},
): GeminiCliAgent {
  return new GeminiCliAgent({
    contentGenerator: model,
    builtinTools: false,
    persist: false,
    settings: false,
    tools: [note],
    ...options,
  });
}
