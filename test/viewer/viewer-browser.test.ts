import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FileSessionStore,
  GeminiCliAgent,
  ModelVisibleError,
  startSessionViewer,
  tool,
  z,
  type GeminiCliAgentOptions,
  type SessionViewer,
} from '../../src/index.js';
import { ScriptedModel, callTurn, modelTurn, textTurn } from '../../src/testing/index.js';
import { launchChromium } from './browser.js';

const XSS = '<img src=x onerror="window.__xss = 1">';
const SCREENSHOTS = process.env['UPDATE_DOCS_SCREENSHOTS'] === '1';

let base: string;
let store: FileSessionStore;
let browser: Browser;
let viewer: SessionViewer;

const usage = (input: number, output: number) => ({
  promptTokenCount: input,
  candidatesTokenCount: output,
  totalTokenCount: input + output,
});

const fetchPage = tool(
  { name: 'fetch_page', description: 'Fetches a page', inputSchema: z.object({ url: z.string() }) },
  () => `The page says: ${XSS}`,
);
const deploy = tool(
  { name: 'deploy', description: 'Deploys', inputSchema: z.object({ env: z.string() }) },
  () => {
    throw new ModelVisibleError('deploy failed: disk on fire');
  },
);

function agentWith(
  model: ScriptedModel,
  tools: GeminiCliAgentOptions['tools'] = [fetchPage, deploy],
): GeminiCliAgent {
  return new GeminiCliAgent({
    contentGenerator: model,
    model: 'gemini-2.5-flash',
    builtinTools: false,
    sessionStore: store,
    tools,
    telemetry: { enabled: false },
  });
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}

async function openSession(page: Page, sessionId: string): Promise<void> {
  const link = page.locator(`a[data-session="${sessionId}"]`);
  await link.waitFor();
  // Keyboard only: focus the link and press Enter.
  await link.focus();
  await page.keyboard.press('Enter');
  await page.locator('#session-title').waitFor();
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'viewer-browser-'));
  await mkdir(join(base, 'project'));
  store = new FileSessionStore({ projectRoot: join(base, 'project'), home: join(base, 'home') });
  const recorded = agentWith(
    new ScriptedModel([
      [
        {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [
                  { text: '**Planning**\n\nI should fetch the page first.', thought: true },
                  {
                    functionCall: {
                      name: 'fetch_page',
                      args: { url: 'https://example.test' },
                      id: 'f1',
                    },
                  },
                  { functionCall: { name: 'deploy', args: { env: 'prod' }, id: 'd1' } },
                ],
              },
              finishReason: 'STOP',
              index: 0,
            },
          ],
          usageMetadata: usage(1200, 40),
        },
      ] as never,
      modelTurn([{ text: `The page contains ${XSS}; the deploy failed.` }], usage(1500, 25)),
    ]),
  );
  await drain(
    recorded.session({ sessionId: 'recorded-1' }).sendStream('Check the page, then deploy.'),
  );
  await recorded.close();
  viewer = await startSessionViewer({ store, pollMs: 150 });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  await rm(base, { recursive: true, force: true });
});

describe('the session viewer in Chromium', () => {
  it('lists the sessions and shows the timeline rows and totals of a recorded session', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(viewer.url);
    await openSession(page, 'recorded-1');
    expect(await page.locator('.turn').count()).toBe(1);
    expect(await page.locator('.turn h3 .prompt').textContent()).toBe(
      'Check the page, then deploy.',
    );
    const rows = page.locator('.turn > .rows > li.row');
    expect(
      await rows.evaluateAll((els) =>
        els.map((e) => (e as unknown as { dataset: Record<string, string> }).dataset['kind']),
      ),
    ).toEqual(['model', 'tool', 'tool', 'model']);
    const labels = await page.locator('.turn > .rows > li.row .label').allTextContents();
    expect(labels).toEqual(['gemini-2.5-flash', 'fetch_page', 'deploy', 'gemini-2.5-flash']);
    expect(await page.locator('[data-total="modelCalls"]').textContent()).toBe('2');
    expect(await page.locator('[data-total="toolCalls"]').textContent()).toBe('2');
    expect(await page.locator('[data-total="errors"]').textContent()).toBe('1');
    expect(await page.locator('[data-total="tokens"]').textContent()).toBe('2700 / 65');
    expect(await page.locator('[data-total="cost"]').textContent()).toMatch(/^\$0\.00\d\d$/);
    expect(await page.locator('li.row.failed .label').textContent()).toBe('deploy');
    expect(errors).toEqual([]);
    if (SCREENSHOTS)
      await page.screenshot({ path: 'docs/images/viewer-timeline.png', fullPage: true });
    await page.close();
  });

  it('expands a tool call with the keyboard; its output with <img onerror> is text, never HTML', async () => {
    const page = await browser.newPage();
    await page.goto(viewer.url);
    await openSession(page, 'recorded-1');
    const row = page.locator('li.row[data-kind="tool"]', { hasText: 'fetch_page' });
    const button = row.locator('button');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await row.locator('.details').isVisible()).toBe(false);
    await button.focus();
    await page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await row.locator('pre.args').textContent()).toContain('"url": "https://example.test"');
    expect(await row.locator('pre.result').textContent()).toBe(`The page says: ${XSS}`);
    // The tools option's calls run under the SDK's default rule: the stored decision says so.
    expect(await row.locator('.decision').textContent()).toBe('allowed by policy');
    expect(await row.locator('.approval').textContent()).toMatch(/^rule: /);
    // The model's answer quotes the payload too.
    const answer = page.locator('li.row[data-kind="model"]').nth(1);
    await answer.locator('button').click();
    expect(await answer.locator('pre.text').textContent()).toContain(XSS);
    expect(await page.locator('img').count()).toBe(0);
    expect(
      await page.evaluate(() => (globalThis as unknown as { __xss?: number }).__xss),
    ).toBeUndefined();
    // The failed call shows its error; the thought shows on the first model row.
    const failed = page.locator('li.row[data-kind="tool"]', { hasText: 'deploy' });
    await failed.locator('button').click();
    expect(await failed.locator('pre.error').textContent()).toContain(
      'deploy failed: disk on fire',
    );
    const first = page.locator('li.row[data-kind="model"]').first();
    await first.locator('button').click();
    expect(await first.locator('pre.thought').textContent()).toContain(
      'I should fetch the page first.',
    );
    if (SCREENSHOTS)
      await page.screenshot({ path: 'docs/images/viewer-expanded.png', fullPage: true });
    await page.close();
  });

  it('shows who approved a call and how long they took, a denied call, a model retry and a compression', async () => {
    const snapshot = textTurn(
      '<state_snapshot><overall_goal>ship it</overall_goal></state_snapshot>',
    );
    const guarded = (name: string) =>
      tool({ name, description: name, inputSchema: z.object({}) }, () => `${name} done`);
    const busy = new GeminiCliAgent({
      contentGenerator: new ScriptedModel([
        textTurn('Warmed up. ' + 'x'.repeat(800)),
        textTurn('Ready.'),
        snapshot,
        snapshot,
        callTurn({ name: 'rm_cache', args: {}, id: 'r1' }, { name: 'drop_db', args: {}, id: 'r2' }),
        // Cut off without a finish reason: the loop sends the request again.
        [{ candidates: [{ content: { role: 'model', parts: [{ text: 'Cleaned' }] } }] }] as never,
        modelTurn([{ text: 'Cleaned the cache; the database stays.' }], usage(900, 30)),
      ]),
      model: 'gemini-2.5-flash',
      builtinTools: false,
      sessionStore: store,
      telemetry: { enabled: false },
      retry: { sleep: async () => undefined },
      features: [{ name: 'ops', tools: [guarded('rm_cache'), guarded('drop_db')] }],
      onApproval: async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        return request.toolName === 'rm_cache' ? 'allow' : { decision: 'deny', message: 'never' };
      },
    });
    const session = busy.session({ sessionId: 'approvals-1' });
    await drain(session.sendStream('Warm up.'));
    await drain(session.sendStream('Ready?'));
    const compressed = await session.compress();
    expect(compressed.compressionStatus).toBe(1);
    await drain(session.sendStream('Clean up.'));
    await busy.close();

    const page = await browser.newPage();
    await page.goto(viewer.url);
    await openSession(page, 'approvals-1');
    const kinds = await page
      .locator('.turn > .rows > li')
      .evaluateAll((els) =>
        els.map((e) => (e as unknown as { dataset: Record<string, string> }).dataset['kind']),
      );
    expect(kinds).toContain('retry');
    expect(kinds).toContain('compression');
    expect(await page.locator('[data-total="retries"]').textContent()).toBe('1');
    expect(await page.locator('[data-total="compressions"]').textContent()).toBe('1');
    const approved = page.locator('li.row[data-kind="tool"]', { hasText: 'rm_cache' });
    expect(await approved.locator('.who').textContent()).toBe('approved by user');
    expect(await approved.locator('.meta').textContent()).toMatch(/approval \d+ ms/);
    await approved.locator('button').click();
    expect(await approved.locator('.approval').textContent()).toMatch(
      /asked .* decided .* waited \d+ ms/,
    );
    const denied = page.locator('li.row[data-kind="tool"]', { hasText: 'drop_db' });
    expect(await denied.locator('.who').textContent()).toBe('denied by user');
    const retry = page.locator('li.row[data-kind="retry"]');
    expect(await retry.locator('.label').textContent()).toBe('attempt 1 of 4 failed');
    await retry.locator('button').click();
    expect(await retry.locator('pre.error').textContent()).not.toBe('');
    const compression = page.locator('li.row[data-kind="compression"]');
    expect(await compression.locator('.label').textContent()).toBe('history summarised');
    expect(await compression.locator('.meta').textContent()).toMatch(/\d+ → \d+ tokens · manual/);
    if (SCREENSHOTS)
      await page.screenshot({ path: 'docs/images/viewer-approvals.png', fullPage: true });
    await page.close();
  });

  it('follows a running session live: a tool call appears pending, then its result and the answer arrive', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = tool(
      { name: 'slow_build', description: 'Builds slowly', inputSchema: z.object({}) },
      async () => {
        await gate;
        return 'build ok';
      },
    );
    const live = agentWith(
      new ScriptedModel([callTurn({ name: 'slow_build', args: {}, id: 's1' }), textTurn('Built.')]),
      [slow],
    );
    const session = live.session({ sessionId: 'live-1' });
    const running = drain(session.sendStream('Build it.'));
    const page = await browser.newPage();
    try {
      await page.goto(viewer.url);
      await openSession(page, 'live-1');
      const tool = page.locator('li.row[data-kind="tool"]', { hasText: 'slow_build' });
      await tool.locator('.status', { hasText: 'pending' }).waitFor({ timeout: 60_000 });
      expect(await page.locator('li.row[data-kind="model"]').count()).toBe(1);
      release();
      await running;
      await tool.locator('.status', { hasText: 'success' }).waitFor({ timeout: 60_000 });
      await page.locator('li.row[data-kind="model"]').nth(1).waitFor({ timeout: 60_000 });
      expect(await page.locator('#live').textContent()).toMatch(/^Live/);
    } finally {
      release();
      await running.catch(() => undefined);
      await page.close();
      await live.close();
    }
  });

  it('every request needs the token; the server is read-only', async () => {
    const url = new URL(viewer.url);
    const token = url.pathname.split('/')[1] ?? '';
    const origin = url.origin;
    expect((await fetch(`${origin}/`)).status).toBe(403);
    expect((await fetch(`${origin}/wrong-token-wrong-token/api/sessions`)).status).toBe(403);
    expect((await fetch(`${origin}/${token}/api/sessions`)).status).toBe(200);
    expect((await fetch(`${origin}/${token}/api/sessions`, { method: 'POST' })).status).toBe(405);
    const page = await fetch(`${origin}/${token}/`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect((await fetch(`${origin}/${token}/api/sessions/no-such-session`)).status).toBe(404);
  });
});
