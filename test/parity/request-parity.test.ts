/**
 * The request gemini-agent sends, against what gemini 0.61 sent in the same situation (recorded with
 * scripts/gemini-reference/record.ts): the model, the generationConfig, the `<session_context>` first turn, the
 * GEMINI.md memory in the system instruction, and which of gemini-cli's tools are offered.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '../../src/tools/builtin/create-builtin-tools.js';
import { ensureBuilt } from '../cli/helpers/built-cli.js';
import {
  firstUserText,
  loadedContext,
  offeredTools,
  recorded,
  runOurs,
  systemText,
} from './run-ours.js';

beforeAll(async () => {
  await ensureBuilt();
});

/** The main chat requests (gemini's routing classifier calls are not chat turns). */
const chatRequests = (r: ReturnType<typeof recorded>) =>
  r.requests.filter((q) => q.method === 'generateContentStream');

describe('the first request, as gemini 0.61 sends it', () => {
  it.each(['memory-basic', 'memory-hierarchy', 'memory-import-cycle', 'include-directories'])(
    '%s: same <session_context> and the same GEMINI.md memory in the system instruction',
    async (name) => {
      const gemini = recorded(name);
      const ours = await runOurs(gemini.scenario);
      expect(ours.exitCode).toBe(gemini.exitCode);
      const [want] = chatRequests(gemini);
      const [got] = chatRequests(ours);
      expect(firstUserText(got?.body)).toBe(firstUserText(want?.body));
      expect(loadedContext(systemText(got?.body))).toBe(loadedContext(systemText(want?.body)));
    },
  );

  it.each([
    'memory-basic',
    'model-auto',
    'model-pro',
    'model-flash',
    'model-flash-lite',
    'model-auto-gemini-2.5',
    'model-auto-gemini-3',
    'model-gemini-2.5-flash',
    'model-gemini-2.0-flash',
    'model-gemini-3-pro-preview',
    'model-precedence',
    'settings-model-name',
    'settings-workspace-trusted',
    'settings-folder-trust-off',
  ])('%s: same model and generationConfig', async (name) => {
    const gemini = recorded(name);
    const ours = await runOurs(gemini.scenario);
    const want = chatRequests(gemini)[0];
    const got = chatRequests(ours)[0];
    expect(got?.model).toBe(want?.model);
    expect((got?.body as { generationConfig?: unknown }).generationConfig).toEqual(
      (want?.body as { generationConfig?: unknown }).generationConfig,
    );
  });

  it.each(['memory-basic', 'tools-yolo', 'tools-settings', 'policy-flag', 'policy-admin-flag'])(
    '%s: offers the same gemini-cli tools (of the ones we implement)',
    async (name) => {
      const gemini = recorded(name);
      const ours = await runOurs(gemini.scenario);
      const ourSet = new Set<string>(BUILTIN_TOOL_NAMES);
      const want = offeredTools(chatRequests(gemini)[0]?.body).filter((t) => ourSet.has(t));
      const got = offeredTools(chatRequests(ours)[0]?.body).filter((t) => ourSet.has(t));
      expect(got.sort()).toEqual(want.sort());
    },
  );
});
