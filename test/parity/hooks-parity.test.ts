/**
 * A gemini-cli workspace with bash command hooks on every event a headless run fires, run by gemini-agent as gemini
 * 0.61 ran it (recorded): each hook gets the same input fields and values, and its answers reach the model the same
 * way (a deny, an exit-2 brake, added context).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/helpers/built-cli.js';
import { recorded, runOurs } from './run-ours.js';

beforeAll(async () => {
  await ensureBuilt();
});

/** The functionResponse parts of the request that followed the tool calls, without the call ids. */
function toolAnswers(r: ReturnType<typeof recorded>): unknown[] {
  const second = r.requests.filter((q) => q.method === 'generateContentStream')[1];
  const contents =
    (second?.body as { contents?: Array<{ parts?: Array<Record<string, unknown>> }> })?.contents ??
    [];
  return contents
    .flatMap((c) => c.parts ?? [])
    .flatMap((p) => {
      const fr = p['functionResponse'] as { name: string; response: unknown } | undefined;
      return fr ? [{ name: fr.name, response: fr.response }] : [];
    });
}

/** The text parts of the first request's first user turn, after the `<session_context>`. */
function firstPrompt(r: ReturnType<typeof recorded>): string[] {
  const first = r.requests.filter((q) => q.method === 'generateContentStream')[0];
  const parts =
    (first?.body as { contents?: Array<{ parts?: Array<{ text?: string }> }> })?.contents?.[0]
      ?.parts ?? [];
  return parts.flatMap((p) => (p.text === undefined ? [] : [p.text])).slice(1);
}

describe('command hooks, as gemini 0.61 runs them', () => {
  it('hooks-command: the same inputs on every event, and the same answers to the model', async () => {
    const gemini = recorded('hooks-command');
    const ours = await runOurs(gemini.scenario);
    expect(ours.exitCode).toBe(gemini.exitCode);
    for (const [file, text] of Object.entries(gemini.files)) {
      expect({ file, text: ours.files[file] }).toEqual({ file, text });
    }
    expect(firstPrompt(ours)).toEqual(firstPrompt(gemini));
    expect(toolAnswers(ours)).toEqual(toolAnswers(gemini));
    for (const line of [
      'WARNING: The following project-level hooks have been detected in this workspace:',
      'Loaded project context',
    ])
      expect(ours.stderr).toContain(line);
  });
});
