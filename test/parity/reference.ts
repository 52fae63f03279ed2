/**
 * Shared by the gemini 0.61 recorder (scripts/gemini-reference/record.ts) and the parity tests: the scenario
 * shape, how a scenario's temp root is laid out, the scripted model turns, and how a run is normalised so a
 * recording made on one machine compares with a run on another.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { GenerateContentResponse } from '@google/genai';
import type { FakeGeminiTurn } from '../../src/testing/index.js';

/** One model turn the fake server answers with. */
export type ScenarioTurn =
  | { text: string; thought?: string }
  | { calls: Array<{ name: string; args: Record<string, unknown>; id?: string }>; text?: string }
  | { status: number };

/** A recorded situation: files, command line, model turns. */
export interface Scenario {
  name: string;
  /** What the scenario shows (kept in the recording). */
  about: string;
  /** Files relative to the temp root (`home/` is HOME); objects are written as JSON. A name ending in `/` makes a folder. */
  files?: Record<string, string | object>;
  /** Working directory relative to the root (default `proj`). */
  cwd?: string;
  /** Arguments after the binary; `<ROOT>` is replaced by the temp root. */
  args: string[];
  /** Extra environment; `<ROOT>` is replaced by the temp root. */
  env?: Record<string, string>;
  /** Text piped on stdin. */
  stdin?: string;
  /** Model turns, in order. */
  turns?: ScenarioTurn[];
  /** Files (relative to the root) whose content after the run is recorded (null when missing). */
  check?: string[];
  /** More command lines run afterwards in the same root (e.g. `-r latest`); the turns are shared. */
  then?: string[][];
}

/** Exit code and output of one command line. */
export interface RunOutput {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** What one run of a scenario produced (gemini's, or ours in the tests). */
export interface Recording extends RunOutput {
  scenario: Scenario;
  /** The runs of `scenario.then`, in order. */
  later: RunOutput[];
  requests: Array<{ method: string; model: string; body: unknown }>;
  /** Session files under `home/.gemini/tmp`, by normalised path, as parsed JSONL lines. */
  sessions: Record<string, unknown[]>;
  files: Record<string, string | null>;
}

const USAGE = { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 };

/**
 * The fake server's turns for a scenario: streamed answers (other calls, such as gemini's routing classifier,
 * get a 400 and consume nothing).
 */
export function buildTurns(turns: readonly ScenarioTurn[]): FakeGeminiTurn[] {
  return turns.map((turn): FakeGeminiTurn => {
    if ('status' in turn) return { status: turn.status };
    if ('calls' in turn) {
      const parts = [
        ...(turn.text ? [{ text: turn.text }] : []),
        ...turn.calls.map((c) => ({
          functionCall: { name: c.name, args: c.args, ...(c.id ? { id: c.id } : {}) },
        })),
      ];
      return { method: 'generateContentStream', chunks: [chunk(parts)] };
    }
    const parts = [
      ...(turn.thought ? [{ text: turn.thought, thought: true }] : []),
      { text: turn.text },
    ];
    return { method: 'generateContentStream', chunks: [chunk(parts)] };
  });
}

function chunk(parts: object[]): GenerateContentResponse {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: USAGE,
  } as unknown as GenerateContentResponse;
}

/** Writes a scenario's files under `root` (`<ROOT>` in their text replaced by it); returns the working directory. */
export function layOut(root: string, scenario: Scenario): string {
  mkdirSync(join(root, 'home'), { recursive: true });
  for (const [path, content] of Object.entries(scenario.files ?? {})) {
    const target = join(root, path);
    if (path.endsWith('/')) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2);
    writeFileSync(target, text.replaceAll('<ROOT>', root));
  }
  const cwd = join(root, scenario.cwd ?? 'proj');
  mkdirSync(cwd, { recursive: true });
  return cwd;
}

/**
 * The environment a scenario runs in (gemini and gemini-agent alike): HOME in the root, the system settings paths
 * in `<root>/etc`, an API key and the fake server's URL, a dumb terminal.
 */
export function scenarioEnv(root: string, url: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: join(root, 'home'),
    TERM: 'dumb',
    NO_COLOR: '1',
    GEMINI_API_KEY: 'test-key',
    GOOGLE_GEMINI_BASE_URL: url,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(root, 'etc', 'settings.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(root, 'etc', 'system-defaults.json'),
  };
}

/** Replaces `<ROOT>` in strings of a JSON value. */
export function substitute<T>(value: T, root: string): T {
  return JSON.parse(JSON.stringify(value).replaceAll('<ROOT>', root)) as T;
}

/** The session files under `<home>/.gemini/tmp`, parsed. */
export function readSessions(tmp: string): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  if (!existsSync(tmp)) return out;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.includes('/chats/') && /\.jsonl?$/.test(entry)) {
        out[relative(tmp, path)] = readFileSync(path, 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as unknown);
      }
    }
  };
  walk(tmp);
  return out;
}

/** Reads the checked files of a scenario. */
export function readChecked(root: string, scenario: Scenario): Record<string, string | null> {
  return Object.fromEntries(
    (scenario.check ?? []).map((p) => {
      const path = join(root, p);
      return [p, existsSync(path) ? readFileSync(path, 'utf8') : null];
    }),
  );
}

/** Today's date as gemini's `<session_context>` words it (`Tuesday, December 1, 2026`). */
export function sessionContextDate(now = new Date()): string {
  return now.toLocaleDateString(undefined, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;
const FILE_TIME = /session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-/g;

/**
 * Machine-independent form of a run: the temp root becomes `<ROOT>`, today's date `<DATE>`, ISO times
 * `<TIME>` and the time part of session file names `session-<TIME>-`.
 */
export function normalise<T>(value: T, root: string, now = new Date()): T {
  const text = JSON.stringify(value)
    .replaceAll(root, '<ROOT>')
    .replaceAll(sessionContextDate(now), '<DATE>')
    .replace(ISO_TIME, '<TIME>')
    .replace(FILE_TIME, 'session-<TIME>-');
  return JSON.parse(text) as T;
}
