import { request } from 'node:http';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FileSessionStore, GeminiCliAgent } from '../../src/index.js';
import { ScriptedModel, textTurn } from '../../src/testing/index.js';
import { ensureBuilt } from './helpers/built-cli.js';
import {
  cleanEnv,
  finished,
  runCli,
  spawnCli,
  tempProject,
  type TempProject,
} from './helpers/run-cli.js';

let project: TempProject;
beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
  const agent = new GeminiCliAgent({
    contentGenerator: new ScriptedModel([textTurn('Hi there.')]),
    builtinTools: false,
    sessionStore: new FileSessionStore({ projectRoot: project.cwd, home: project.home }),
    telemetry: { enabled: false },
  });
  for await (const _ of agent.session({ sessionId: 'view-cli-1' }).sendStream('Hello viewer'))
    void _;
  await agent.close();
});
afterEach(() => project.cleanup());

/** The first line a child writes on stdout. */
function firstLine(child: ReturnType<typeof spawnCli>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end !== -1) resolve(text.slice(0, end));
    });
    child.once('exit', (code) =>
      reject(new Error(`exited (${code}) before printing a line: ${text}`)),
    );
  });
}

describe('gemini-agent view', () => {
  it('--no-open prints the URL first, serves the project sessions on 127.0.0.1 with the token, stops on SIGTERM', async () => {
    const child = spawnCli(['view', 'view-cli-1', '--no-open'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    const done = finished(child);
    const line = await firstLine(child);
    const url = new URL(line);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.hash).toBe('#/session/view-cli-1');
    const token = url.pathname.split('/')[1] ?? '';
    expect(token.length).toBeGreaterThanOrEqual(24);
    const sessions = (await (await fetch(`${url.origin}/${token}/api/sessions`)).json()) as Array<{
      sessionId: string;
      firstPrompt: string;
    }>;
    expect(sessions.map((s) => [s.sessionId, s.firstPrompt])).toEqual([
      ['view-cli-1', 'Hello viewer'],
    ]);
    const timeline = (await (
      await fetch(`${url.origin}/${token}/api/sessions/view-cli-1`)
    ).json()) as {
      turns: Array<{ prompt: string }>;
    };
    expect(timeline.turns.map((t) => t.prompt)).toEqual(['Hello viewer']);
    expect((await fetch(`${url.origin}/api/sessions`)).status).toBe(403);
    // A page of another origin cannot reach it through DNS rebinding: the Host header is checked.
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      request(`${url.origin}/${token}/api/sessions`, { headers: { host: 'evil.test' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .once('error', reject)
        .end();
    });
    expect(rebound).toBe(403);
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('read-only');
  });

  it('an unknown session is a usage error (exit 42) naming --list-sessions; --help explains the command', async () => {
    const result = await runCli(['view', 'nope', '--no-open'], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(42);
    expect(result.stderr).toContain('--list-sessions');
    const help = await runCli(['view', '--help'], { cwd: project.cwd, env: cleanEnv(project) });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: gemini-agent view');
    const bad = await runCli(['view', '--port', 'x'], { cwd: project.cwd, env: cleanEnv(project) });
    expect(bad.code).toBe(42);
  });
});
