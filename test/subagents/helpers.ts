import type { Content, GenerateContentParameters, GenerateContentResponse } from '@google/genai';
import type { ServerGeminiStreamEvent, SubagentActivityInfo } from '../../src/index.js';
import { callTurn, modelTurn } from '../../src/testing/index.js';

/** Every event of a stream. */
export async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The `subagent_activity` values of a stream, in order. */
export function activities(events: readonly ServerGeminiStreamEvent[]): SubagentActivityInfo[] {
  return events.flatMap((e) => (e.type === 'subagent_activity' ? [e.value] : []));
}

/** The system instruction of a request, as text. */
export function systemText(request: GenerateContentParameters): string {
  const si = request.config?.systemInstruction;
  return typeof si === 'string' ? si : JSON.stringify(si ?? '');
}

/** The declared tool names of a request. */
export function declaredTools(request: GenerateContentParameters): string[] {
  const tools = (request.config?.tools ?? []) as Array<{
    functionDeclarations?: Array<{ name?: string }>;
  }>;
  return tools.flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name ?? '');
}

/** The function responses of the last content of a request. */
export function lastResponses(request: GenerateContentParameters): unknown[] {
  const last = (request.contents as Content[]).at(-1);
  return (last?.parts ?? []).flatMap((p) =>
    p.functionResponse ? [p.functionResponse.response] : [],
  );
}

/** A model turn delegating to a subagent. */
export function invokeTurn(
  agentName: string,
  prompt: string,
  id?: string,
): GenerateContentResponse[] {
  return callTurn({
    name: 'invoke_agent',
    args: { agent_name: agentName, prompt },
    ...(id ? { id } : {}),
  });
}

/** A model turn calling `complete_task` with `args`. */
export function completeTurn(args: Record<string, unknown>): GenerateContentResponse[] {
  return callTurn({ name: 'complete_task', args });
}

/** A model turn with usage metadata. */
export function turnWithUsage(
  turn: GenerateContentResponse[],
  total: number,
): GenerateContentResponse[] {
  const [first] = turn;
  const parts = first?.candidates?.[0]?.content?.parts ?? [];
  return modelTurn(parts, {
    promptTokenCount: total - 1,
    candidatesTokenCount: 1,
    totalTokenCount: total,
  });
}
