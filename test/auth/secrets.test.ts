import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GeminiCliAgent, tool, z, type Logger } from '../../src/index.js';
import { callTurn, textTurn } from '../../src/testing/index.js';
import { createAuthFixture, expiredCredentials, type AuthFixture } from './auth-fixture.js';

let fx: AuthFixture | undefined;
afterEach(async () => {
  await fx?.dispose();
  fx = undefined;
});

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

const REFRESH = '1//secret-refresh-token-for-the-leak-test';

describe('tokens never leak', () => {
  it('not into logs, session files, recordings or errors', async () => {
    fx = await createAuthFixture({
      auth: { refreshTokens: [REFRESH] },
      codeAssist: {
        turns: [callTurn({ name: 'echo', args: { text: 'x' } }), textTurn('done')],
      },
    });
    fx.writeCredentials(expiredCredentials(REFRESH));
    const lines: string[] = [];
    const capture =
      (level: string) =>
      (message: string, data?: Record<string, unknown>): void => {
        lines.push(`${level} ${message} ${JSON.stringify(data ?? {})}`);
      };
    const logger: Logger = {
      debug: capture('debug'),
      info: capture('info'),
      warn: capture('warn'),
      error: capture('error'),
    };
    const recording = join(fx.home, 'recording.jsonl');
    const agent = new GeminiCliAgent({
      builtinTools: false,
      authType: 'oauth-personal',
      logger,
      recordResponses: recording,
      retry: false,
      tools: [
        tool(
          { name: 'echo', description: 'echo', inputSchema: z.object({ text: z.string() }) },
          (a) => a.text,
        ),
      ],
    });
    const session = agent.session();
    const events: unknown[] = [];
    for await (const e of session.sendStream('go')) events.push(e);

    // A failing sign-in too: its error must not carry the refresh token either.
    fx.auth.revokeAll();
    fx.auth.tokenFailure = {
      status: 400,
      error: 'invalid_grant',
      description: 'Token has been expired or revoked.',
    };
    fx.writeCredentials(expiredCredentials(REFRESH));
    const failing = new GeminiCliAgent({ builtinTools: false, authType: 'oauth-personal', logger });
    const error = await (async () => {
      for await (const _ of failing.session().sendStream('again')) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);

    const secrets = [REFRESH, 'ya29.expired-access-token-abcdef', ...issued(fx)];
    expect(secrets.length).toBeGreaterThan(2);
    const sessionFiles = filesUnder(join(fx.home, '.gemini', 'tmp'));
    expect(sessionFiles.length).toBeGreaterThan(0);
    const haystacks: Array<[string, string]> = [
      ['logs', lines.join('\n')],
      ['events', JSON.stringify(events)],
      ['recording', readFileSync(recording, 'utf8')],
      ['error', `${String(error)} ${JSON.stringify(error)} ${String((error as Error).stack)}`],
      ...sessionFiles.map((f): [string, string] => [f, readFileSync(f, 'utf8')]),
    ];
    expect(lines.join('\n')).toContain('Code Assist ready.');
    for (const [where, text] of haystacks) {
      for (const secret of secrets) {
        expect(text.includes(secret), `${where} contains a token`).toBe(false);
      }
    }
  });
});

/** Every access token the fake issued (it keeps them all valid until revoked, so record them as they go). */
function issued(fixture: AuthFixture): string[] {
  const tokens: string[] = [];
  for (const r of fixture.codeAssist.requests) {
    const h = r.headers['authorization'];
    if (typeof h === 'string') tokens.push(h.replace(/^Bearer /, ''));
  }
  return [...new Set(tokens)];
}
