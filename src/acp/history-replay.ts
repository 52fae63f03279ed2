import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { Content, FunctionResponse } from '@google/genai';
import type { ToolCatalog } from './tool-display.js';

/** Longest tool output replayed per call; the rest is cut with a note (the model saw it whole). */
export const REPLAY_OUTPUT_LIMIT = 4000;

/** Text of a user turn the SDK adds itself (never shown as something the user typed). */
const HIDDEN_USER_PREFIXES = ['<session_context>', '<hook_context>'];

function outputText(response: FunctionResponse['response']): { text: string; failed: boolean } {
  const body = (response ?? {}) as Record<string, unknown>;
  const failed = 'error' in body;
  const value = failed ? body['error'] : 'output' in body ? body['output'] : body;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return { text, failed };
}

function clip(text: string): string {
  if (text.length <= REPLAY_OUTPUT_LIMIT) return text;
  return `${text.slice(0, REPLAY_OUTPUT_LIMIT)}\n… (${text.length - REPLAY_OUTPUT_LIMIT} more characters)`;
}

/**
 * The `session/update`s that show a stored conversation again (`session/load`): the user's text and images as
 * `user_message_chunk`, thoughts as `agent_thought_chunk`, model text as `agent_message_chunk`, and every tool
 * call as a `tool_call` with its final status (`completed`, `failed`, or `pending` while it waits for approval)
 * and its output (none for `write_todos`, whose display is its todo list, as gemini-cli 0.61 replays it).
 */
export function replayUpdates(
  history: readonly Content[],
  catalog: ToolCatalog,
  cwd: string,
): SessionUpdate[] {
  const responses = new Map<string, FunctionResponse>();
  for (const content of history) {
    for (const part of content.parts ?? []) {
      if (part.functionResponse?.id) responses.set(part.functionResponse.id, part.functionResponse);
    }
  }
  const updates: SessionUpdate[] = [];
  for (const content of history) {
    const parts = content.parts ?? [];
    if (content.role === 'user') {
      for (const part of parts) {
        if (part.text !== undefined && part.text !== '') {
          if (HIDDEN_USER_PREFIXES.some((p) => part.text?.startsWith(p))) continue;
          updates.push({
            sessionUpdate: 'user_message_chunk',
            content: { type: 'text', text: part.text },
          });
        } else if (part.inlineData?.data && part.inlineData.mimeType?.startsWith('image/')) {
          updates.push({
            sessionUpdate: 'user_message_chunk',
            content: {
              type: 'image',
              data: part.inlineData.data,
              mimeType: part.inlineData.mimeType,
            },
          });
        }
      }
      continue;
    }
    for (const part of parts) {
      if (part.functionCall) {
        const call = part.functionCall;
        const id = call.id ?? '';
        const args = (call.args as Record<string, unknown> | undefined) ?? {};
        const display = catalog.display(call.name ?? '', args, cwd);
        const response = responses.get(id);
        const output = response ? outputText(response.response) : undefined;
        // write_todos displays a TodoList, not text: gemini replays its call with no content (and sends no plan).
        const content: ToolCallContent[] =
          output && output.text !== '' && call.name !== 'write_todos'
            ? [{ type: 'content', content: { type: 'text', text: clip(output.text) } }]
            : [];
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: id,
          title: display.title,
          kind: display.kind,
          status: output === undefined ? 'pending' : output.failed ? 'failed' : 'completed',
          locations: display.locations,
          rawInput: args,
          content,
        });
      } else if (part.text !== undefined && part.text !== '') {
        updates.push({
          sessionUpdate: part.thought === true ? 'agent_thought_chunk' : 'agent_message_chunk',
          content: { type: 'text', text: part.text },
        });
      }
    }
  }
  return updates;
}
