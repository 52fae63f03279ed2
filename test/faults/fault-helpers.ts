/**
 * Shared pieces of the fault catalogue: a temp project, a stream collector that keeps the error, instant retry
 * sleeps, and the check every fault ends with — the history a new agent resumes from disk is the live one, and
 * valid for the API.
 */
import type { Content, GenerateContentResponse } from '@google/genai';
import { mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import {
  GeminiCliAgent,
  type GeminiCliAgentOptions,
  type ServerGeminiStreamEvent,
} from '../../src/index.js';
import { buildRequestContents } from '../../src/loop/request-contents.js';
import { FakeGeminiServer, type FakeGeminiTurn } from '../../src/testing/index.js';
import { expectValidContents } from '../scenarios/history-assertions.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh, real (symlink-free) project folder, removed after the test. */
export async function tempProject(prefix = 'gas-fault-'): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A started FakeGeminiServer playing `turns`, closed after the test. */
export async function fakeGemini(...turns: FakeGeminiTurn[]): Promise<FakeGeminiServer> {
  const server = new FakeGeminiServer({ turns });
  await server.start();
  cleanups.push(() => server.close());
  return server;
}

/** Retry options that never wait, recording every requested delay. */
export function instantRetry(extra: Record<string, unknown> = {}): {
  retry: NonNullable<Exclude<GeminiCliAgentOptions['retry'], false>>;
  delays: number[];
} {
  const delays: number[] = [];
  return {
    delays,
    retry: {
      sleep: async (ms: number) => {
        delays.push(ms);
      },
      random: () => 0.5,
      ...extra,
    },
  };
}

/** Every event of a stream, and the error it rejected with (if any). */
export async function collect(
  stream: AsyncIterable<ServerGeminiStreamEvent>,
): Promise<{ events: ServerGeminiStreamEvent[]; error: unknown }> {
  const events: ServerGeminiStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

/** The events of one type. */
export function ofType<T extends ServerGeminiStreamEvent['type']>(
  events: readonly ServerGeminiStreamEvent[],
  type: T,
): Array<Extract<ServerGeminiStreamEvent, { type: T }>> {
  return events.filter((e): e is Extract<ServerGeminiStreamEvent, { type: T }> => e.type === type);
}

/**
 * The guarantee every fault ends with: a new agent in the same project resumes exactly `expected` from disk, and
 * that history makes a request Gemini accepts (roles alternate, every call answered once).
 */
export async function expectStoredHistory(
  cwd: string,
  sessionId: string,
  expected: readonly Content[],
): Promise<void> {
  const reader = new GeminiCliAgent({ cwd, builtinTools: false, skillDiscovery: false });
  const resumed = await reader.resumeSession(sessionId);
  const history = resumed.getHistory();
  await resumed.close();
  expect(history).toEqual(expected);
  if (history.length > 0) expectValidContents(buildRequestContents(history));
}

/** The stored file of a project's session, found by listing (a worker's GEMINI_CLI_HOME holds other projects). */
export async function sessionFileOf(cwd: string, sessionId: string): Promise<string> {
  const listed = await new GeminiCliAgent({ cwd, skillDiscovery: false }).listSessions();
  const found = listed.find((s) => s.sessionId === sessionId);
  if (found === undefined) throw new Error(`no stored session ${sessionId} in ${cwd}`);
  return found.location;
}

/** The lines of a session's file under a GEMINI_CLI_HOME, parsed (found by the sessionId in its header). */
export async function sessionFileRecords(
  home: string,
  sessionId: string,
): Promise<Array<Record<string, unknown>>> {
  // Tests in one file share a home, so pick the file whose header names this session (readdir order is arbitrary).
  const tmp = join(home, '.gemini', 'tmp');
  for (const slug of await readdir(tmp)) {
    const chats = join(tmp, slug, 'chats');
    const files = (await readdir(chats).catch(() => [])).filter((f) => f.endsWith('.jsonl'));
    for (const file of files) {
      const records = (await readFile(join(chats, file), 'utf8'))
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      if (records[0]?.['sessionId'] === sessionId) return records;
    }
  }
  return [];
}

/** A streamed chunk holding `parts` (and `finishReason` when given). */
export function chunk(
  parts: object[],
  finishReason?: string,
  extra: object = {},
): GenerateContentResponse {
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        ...(finishReason ? { finishReason } : {}),
        index: 0,
      },
    ],
    ...extra,
  } as unknown as GenerateContentResponse;
}
