/**
 * gemini-cli's policy files, enforced by gemini-agent as gemini 0.61 enforced them (recorded): the same files,
 * the same command line, the same model turns, the same answer to the model and the same files left on disk.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/helpers/built-cli.js';
import { recorded, runOurs } from './run-ours.js';

beforeAll(async () => {
  await ensureBuilt();
});

/** The functionResponse parts of the request that followed the tool calls. */
function toolAnswers(
  r: ReturnType<typeof recorded>,
): Array<{ name: string; response: Record<string, unknown> }> {
  const second = r.requests.filter((q) => q.method === 'generateContentStream')[1];
  const contents =
    (second?.body as { contents?: Array<{ parts?: Array<Record<string, unknown>> }> })?.contents ??
    [];
  return contents
    .flatMap((c) => c.parts ?? [])
    .flatMap((p) => {
      const fr = p['functionResponse'] as
        { name: string; response: Record<string, unknown> } | undefined;
      return fr ? [{ name: fr.name, response: fr.response }] : [];
    });
}

/**
 * "Did you mean" lists our own tools, which differ from gemini's: compare up to it. A shell's process group id
 * differs per run.
 */
const withoutSuggestions = (answers: ReturnType<typeof toolAnswers>) =>
  answers.map((a) => ({
    name: a.name,
    response: Object.fromEntries(
      Object.entries(a.response).map(([k, v]) => [
        k,
        typeof v === 'string'
          ? v
              .replace(/ Did you mean.*$/, '')
              .replace(/Process Group PGID: \d+/, 'Process Group PGID: <n>')
          : v,
      ]),
    ),
  }));

describe('policies, as gemini 0.61 enforces them', () => {
  it.each(['policy-user-deny-rm', 'policy-flag', 'policy-admin-flag', 'tools-allowed-shell'])(
    '%s: same exit code, same answers to the model, same files left',
    async (name) => {
      const gemini = recorded(name);
      const ours = await runOurs(gemini.scenario);
      expect(ours.exitCode).toBe(gemini.exitCode);
      expect(withoutSuggestions(toolAnswers(ours))).toEqual(
        withoutSuggestions(toolAnswers(gemini)),
      );
      expect(ours.files).toEqual(gemini.files);
    },
  );
});
