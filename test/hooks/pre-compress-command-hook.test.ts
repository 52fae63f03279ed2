import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Content, GenerateContentParameters, GenerateContentResponse } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CompressionStatus, GeminiCliAgent } from '../../src/index.js';
import { ScriptedModel, modelTurn, textTurn } from '../../src/testing/index.js';
import { COMPRESSION_PROMPT } from '../../src/context/compression-prompt.js';
import { estimateTokens } from '../../src/loop/context-window.js';
import { drain, ofType } from './helpers.js';

let home: string;
let savedHome: string | undefined;

beforeEach(() => {
  savedHome = process.env['GEMINI_CLI_HOME'];
  home = realpathSync(mkdtempSync(join(tmpdir(), 'precompress-home-')));
  process.env['GEMINI_CLI_HOME'] = home;
});
afterEach(() => {
  if (savedHome === undefined) delete process.env['GEMINI_CLI_HOME'];
  else process.env['GEMINI_CLI_HOME'] = savedHome;
});

/**
 * A PreCompress hook as a gemini-cli user writes it: a bash script that appends its stdin (one JSON line) and the
 * variables gemini-cli sets to a log in the project, and answers with a systemMessage.
 */
const SCRIPT = `#!/usr/bin/env bash
input=$(cat)
printf '%s\\n' "$input" >> "$GEMINI_PROJECT_DIR/.pre-compress.jsonl"
printf '%s|%s|%s\\n' "$GEMINI_SESSION_ID" "$GEMINI_CWD" "$1" >> "$GEMINI_PROJECT_DIR/.pre-compress.env"
echo '{"systemMessage": "saving a copy before compression"}'
`;

/** The user's settings.json (~/.gemini/settings.json): one PreCompress hook per trigger. */
function writeUserSettings(script: string): void {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      hooks: {
        PreCompress: [
          {
            matcher: 'auto',
            hooks: [{ type: 'command', name: 'pre-compress-auto', command: `${script} auto` }],
          },
          {
            matcher: 'manual',
            hooks: [{ type: 'command', name: 'pre-compress-manual', command: `${script} manual` }],
          },
        ],
      },
    }),
  );
}

function logLines(cwd: string, name: string): string[] {
  const file = join(cwd, name);
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
}

function isCompression(request: GenerateContentParameters): boolean {
  const si = request.config?.systemInstruction as { text?: string } | undefined;
  return si?.text === COMPRESSION_PROMPT;
}

/** A model turn reporting the request's estimated size as its promptTokenCount, as a real model counts it. */
function counted(text: string) {
  return (request: GenerateContentParameters): GenerateContentResponse[] => {
    const tokens = estimateTokens((request.contents as Content[]).flatMap((c) => c.parts ?? []));
    return modelTurn([{ text }], { promptTokenCount: tokens, totalTokenCount: tokens + 5 });
  };
}

describe('a PreCompress command hook from settings.json', () => {
  it('runs before a real compression, automatic and manual, with gemini-cli’s PreCompress input on stdin', async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'precompress-ws-')));
    const script = join(home, 'pre-compress.sh');
    writeFileSync(script, SCRIPT);
    chmodSync(script, 0o755);
    writeUserSettings(script);

    // What the hook had logged when each summary request reached the model: the hook must run first.
    const seenAtSummary: number[] = [];
    const summary = (n: number) => (request: GenerateContentParameters) => {
      expect(isCompression(request)).toBe(true);
      seenAtSummary.push(logLines(cwd, '.pre-compress.jsonl').length);
      return textTurn(`<state_snapshot><overall_goal>goal ${n}</overall_goal></state_snapshot>`);
    };
    const model = new ScriptedModel([
      counted('first answer ' + 'a'.repeat(3200)),
      counted('second answer ' + 'b'.repeat(2000)),
      // ~800 of 1,500 tokens after the second answer (≥ 0.5): the third prompt compresses first.
      summary(1),
      summary(2),
      counted('third answer ' + 'c'.repeat(400)),
      // session.compress(): summary and probe again.
      summary(3),
      summary(4),
    ]);
    const agent = new GeminiCliAgent({
      contentGenerator: model,
      cwd,
      builtinTools: false,
      retry: false,
      sessionContext: false,
      context: { tokenLimit: 1500 },
    });
    expect(agent.hooks().hooks.map((h) => h.name)).toEqual([
      'pre-compress-auto',
      'pre-compress-manual',
    ]);
    const session = agent.session();
    await drain(session.sendStream('one'));
    await drain(session.sendStream('two'));
    expect(logLines(cwd, '.pre-compress.jsonl')).toEqual([]);

    const events = await drain(session.sendStream('three'));
    expect(ofType(events, 'chat_compressed')).toHaveLength(1);
    expect(ofType(events, 'hook_system_message').map((e) => e.value.message)).toEqual([
      'saving a copy before compression',
    ]);
    const info = await session.compress();
    expect(info.compressionStatus).toBe(CompressionStatus.COMPRESSED);
    await session.close();
    model.assertComplete();

    // Each trigger ran its own hook once, before the summary requests of its compression.
    expect(seenAtSummary).toEqual([1, 1, 2, 2]);
    const inputs = logLines(cwd, '.pre-compress.jsonl').map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    );
    const transcript = inputs[0]?.['transcript_path'] as string;
    expect(transcript.startsWith(join(home, '.gemini', 'tmp'))).toBe(true);
    expect(existsSync(transcript)).toBe(true);
    // gemini-cli's PreCompress input: the common fields, then `trigger` — nothing else.
    for (const [input, trigger] of [
      [inputs[0], 'auto'],
      [inputs[1], 'manual'],
    ] as const) {
      expect(Object.keys(input ?? {})).toEqual([
        'session_id',
        'transcript_path',
        'cwd',
        'hook_event_name',
        'timestamp',
        'trigger',
      ]);
      expect(input).toEqual({
        session_id: session.id,
        transcript_path: transcript,
        cwd,
        hook_event_name: 'PreCompress',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        trigger,
      });
    }
    expect(logLines(cwd, '.pre-compress.env')).toEqual([
      `${session.id}|${cwd}|auto`,
      `${session.id}|${cwd}|manual`,
    ]);
  });
});
