/** Helpers shared by the policy scenarios: temp workspaces, draining streams, reading what the model was told. */
import type { Content } from '@google/genai';
import { mkdtemp, readFile, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ServerGeminiStreamEvent } from '../../src/index.js';
import type { ScriptedModel } from '../../src/testing/index.js';

/** A fresh, real temp directory (symlinks resolved). */
export async function tempWorkspace(prefix: string): Promise<string> {
  return realpath(await mkdtemp(path.join(tmpdir(), `policy-${prefix}-`)));
}

/** Collects every event of a stream. */
export async function drain(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<ServerGeminiStreamEvent[]> {
  const events: ServerGeminiStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The `functionResponse.response` objects the model received in request `index` (its last user turn). */
export function responsesSentToModel(
  model: ScriptedModel,
  index: number,
): Array<{ name: string | undefined; response: Record<string, unknown> }> {
  const contents = (model.generateRequests[index]?.contents ?? []) as Content[];
  const last = contents[contents.length - 1];
  return (last?.parts ?? []).flatMap((part) =>
    part.functionResponse
      ? [
          {
            name: part.functionResponse.name,
            response: (part.functionResponse.response ?? {}) as Record<string, unknown>,
          },
        ]
      : [],
  );
}

/** The file's text, or null when it does not exist. */
export async function readOrNull(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch(() => null);
}

/** gemini-cli's headless message for a call that needs approval. */
export function needsConfirmation(displayName: string): string {
  return `Tool execution for "${displayName}" requires user confirmation, which is not supported in non-interactive mode.`;
}
