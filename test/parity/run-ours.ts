import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { FakeGeminiServer } from '../../src/testing/index.js';
import { runCli } from '../cli/helpers/run-cli.js';
import {
  buildTurns,
  layOut,
  normalise,
  readChecked,
  readSessions,
  scenarioEnv,
  substitute,
  type Recording,
  type RunOutput,
  type Scenario,
} from './reference.js';

/** The recording of gemini 0.61 for a scenario (test/fixtures/gemini-0.61/<name>.json). */
export function recorded(name: string): Recording {
  const url = new URL(`../fixtures/gemini-0.61/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as Recording;
}

/**
 * Runs a scenario through our CLI exactly as the recorder ran gemini: the same temp layout, HOME, system
 * settings paths, API key and FakeGeminiServer turns. Returns the same normalised shape.
 */
export async function runOurs(
  scenario: Scenario,
  extraArgs: readonly string[] = [],
): Promise<Recording> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'gemini-agent-parity-')));
  const server = new FakeGeminiServer({ turns: buildTurns(scenario.turns ?? []) });
  try {
    const cwd = layOut(root, scenario);
    const url = await server.start();
    const env: NodeJS.ProcessEnv = {
      ...scenarioEnv(root, url),
      ...substitute(scenario.env ?? {}, root),
    };
    const run = async (args: string[], input?: string): Promise<RunOutput> => {
      const result = await runCli([...substitute(args, root), ...extraArgs], {
        cwd,
        env,
        ...(input === undefined ? {} : { input }),
      });
      return { exitCode: result.code, stdout: result.stdout, stderr: result.stderr };
    };
    const first = await run(scenario.args, scenario.stdin);
    const later: RunOutput[] = [];
    for (const args of scenario.then ?? []) later.push(await run(args));
    return normalise(
      {
        scenario,
        ...first,
        later,
        requests: server.requests.map((r) => ({ method: r.method, model: r.model, body: r.body })),
        sessions: readSessions(join(root, 'home', '.gemini', 'tmp')),
        files: readChecked(root, scenario),
      },
      root,
    );
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

/** The text of a request's system instruction. */
export function systemText(body: unknown): string {
  const si = (body as { systemInstruction?: { parts?: Array<{ text?: string }> } })
    .systemInstruction;
  return (si?.parts ?? []).map((p) => p.text ?? '').join('');
}

/** The `<loaded_context>` block of a system instruction (undefined when there is none). */
export function loadedContext(text: string): string | undefined {
  const start = text.lastIndexOf('<loaded_context>');
  const end = text.lastIndexOf('</loaded_context>');
  return start === -1 || end === -1
    ? undefined
    : text.slice(start, end + '</loaded_context>'.length);
}

/** The first part of the first user turn of a request (the `<session_context>`). */
export function firstUserText(body: unknown): string | undefined {
  const contents = (body as { contents?: Array<{ parts?: Array<{ text?: string }> }> }).contents;
  return contents?.[0]?.parts?.[0]?.text;
}

/** The names of the functions a request offers. */
export function offeredTools(body: unknown): string[] {
  const tools = (body as { tools?: Array<{ functionDeclarations?: Array<{ name: string }> }> })
    .tools;
  return (tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
}
