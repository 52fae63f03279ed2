import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OtlpReceiver, attrs, spansOf } from '../telemetry/otlp-receiver.js';
import { ensureBuilt, ROOT } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';

const HELLO = join(ROOT, 'test', 'cli', 'fixtures', 'hello.jsonl');

let project: TempProject;
const receiver = new OtlpReceiver();
beforeAll(async () => {
  await ensureBuilt();
  await receiver.start();
});
afterAll(() => receiver.stop());
beforeEach(async () => {
  project = await tempProject();
  receiver.requests.length = 0;
});
afterEach(() => project.cleanup());

async function userSettings(settings: unknown): Promise<void> {
  await mkdir(join(project.home, '.gemini'), { recursive: true });
  await writeFile(join(project.home, '.gemini', 'settings.json'), JSON.stringify(settings));
}

describe('gemini-agent telemetry (gemini-cli telemetry.* settings)', () => {
  it('telemetry.enabled with otlpProtocol http: the run exports its spans to the endpoint before exiting', async () => {
    await userSettings({
      telemetry: { enabled: true, otlpProtocol: 'http', otlpEndpoint: receiver.url },
    });
    const result = await runCli(
      ['-p', 'say hello', '--fake-responses', HELLO, '--session-id', 'cli-otel-1'],
      { cwd: project.cwd, env: cleanEnv(project) },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Hello from the replay.');
    const spans = spansOf(receiver);
    expect(spans.map((s) => s.span.name).sort()).toEqual([
      'chat gemini-2.5-pro',
      'invoke_agent gemini-agent',
    ]);
    for (const { resource, scope } of spans) {
      expect(resource).toMatchObject({
        'service.name': 'gemini-agent',
        'session.id': 'cli-otel-1',
      });
      expect(scope).toBe('gemini-agent-sdk');
    }
    const chat = spans.find((s) => s.span.name.startsWith('chat'))?.span;
    expect(chat && attrs(chat)).toMatchObject({
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.conversation.id': 'cli-otel-1',
    });
    // logPrompts is off unless asked for.
    expect(JSON.stringify(spans)).not.toContain('say hello');
  });

  it('GEMINI_TELEMETRY_* win over the settings: outfile and logPrompts', async () => {
    await userSettings({ telemetry: { enabled: false, otlpEndpoint: receiver.url } });
    const outfile = join(project.cwd, 'telemetry.log');
    const result = await runCli(['-p', 'say hello', '--fake-responses', HELLO], {
      cwd: project.cwd,
      env: cleanEnv(project, {
        GEMINI_TELEMETRY_ENABLED: 'true',
        GEMINI_TELEMETRY_OUTFILE: outfile,
        GEMINI_TELEMETRY_LOG_PROMPTS: '1',
      }),
    });
    expect(result.code).toBe(0);
    expect(receiver.requests).toEqual([]);
    const lines = (await readFile(outfile, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { name: string; attributes: Record<string, unknown> });
    const turn = lines.find((l) => l.name === 'invoke_agent gemini-agent');
    expect(String(turn?.attributes['gen_ai.input.messages'])).toContain('say hello');
    expect(String(turn?.attributes['gen_ai.output.messages'])).toContain('Hello from the replay.');
  });

  it('a bad telemetry setting is a configuration error (exit 52) that names the valid values', async () => {
    await userSettings({ telemetry: { enabled: true, target: 'mars' } });
    const result = await runCli(['-p', 'x', '--fake-responses', HELLO], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(52);
    expect(result.stderr).toContain(
      'Invalid telemetry target: mars. Valid values are: local, gcp.',
    );
    const gcp = await runCli(['-p', 'x', '--fake-responses', HELLO], {
      cwd: project.cwd,
      env: cleanEnv(project, { GEMINI_TELEMETRY_TARGET: 'gcp' }),
    });
    expect(gcp.code).toBe(52);
    expect(gcp.stderr).toContain('useCollector');
  });

  it('telemetry off (the default): nothing is exported', async () => {
    await userSettings({ telemetry: { otlpProtocol: 'http', otlpEndpoint: receiver.url } });
    const result = await runCli(['-p', 'say hello', '--fake-responses', HELLO], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(result.code).toBe(0);
    expect(receiver.requests).toEqual([]);
  });
});
