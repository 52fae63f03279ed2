/**
 * A gemini-cli 0.61 extension folder (MCP server, GEMINI.md, skill, command hook, policy, agent, `.env` setting),
 * a disabled one and four broken ones, run by gemini-agent as gemini 0.61 ran them (recorded): each part takes
 * effect the same way, and the broken ones are reported with gemini's texts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/helpers/built-cli.js';
import type { Recording } from './reference.js';
import { recorded, runOurs, systemText } from './run-ours.js';

beforeAll(async () => {
  await ensureBuilt();
}, 300_000);

type Body = { contents?: Array<{ parts?: Array<Record<string, unknown>> }>; tools?: unknown[] };
const body = (r: Recording, i: number): Body =>
  r.requests.filter((q) => q.method === 'generateContentStream')[i]?.body as Body;

/** The `<extension_context>` block of the first turn's `<session_context>`. */
function extensionContext(r: Recording): string | undefined {
  const text = String(body(r, 0).contents?.[0]?.parts?.[0]?.['text'] ?? '');
  return /<extension_context>[\s\S]*<\/extension_context>/.exec(text)?.[0];
}

function toolNames(r: Recording, i: number): string[] {
  return (
    (body(r, i).tools ?? []) as Array<{ functionDeclarations?: Array<{ name: string }> }>
  ).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
}

/** The answers to the tool calls (ids dropped: they embed the time). */
function toolAnswers(r: Recording): unknown[] {
  return (body(r, 1).contents ?? [])
    .flatMap((c) => c.parts ?? [])
    .flatMap((p) => {
      const fr = p['functionResponse'] as { name: string; response: unknown } | undefined;
      return fr ? [{ name: fr.name, response: fr.response }] : [];
    });
}

/** The `<skill>` entry of the extension's skill in the system prompt. */
function skillEntry(r: Recording): string | undefined {
  return /<skill>\s*<name>greeter<\/name>[\s\S]*?<\/skill>/.exec(systemText(body(r, 0)))?.[0];
}

const lines = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split('\n')
    .filter((l) => l !== '')
    .sort();

describe('a gemini-cli 0.61 extension folder, as gemini 0.61 loads it', () => {
  it('extension-full: context, MCP tool with its setting, skill, command hook, policy, exclusions and warnings', async () => {
    const gemini = recorded('extension-full');
    const ours = await runOurs(gemini.scenario);
    expect(ours.exitCode).toBe(gemini.exitCode);
    // GEMINI.md of the active extension only (ext-off is disabled for this folder).
    expect(extensionContext(ours)).toBeDefined();
    expect(extensionContext(ours)).toBe(extensionContext(gemini));
    expect(JSON.stringify(ours.requests)).not.toContain('Disabled extension');
    // The skill, hydrated with the .env setting, in the system prompt.
    expect(skillEntry(ours)).toBeDefined();
    expect(skillEntry(ours)).toBe(skillEntry(gemini));
    // The MCP server's tool is offered, the excluded tool is not (it is with -e none, in gemini's third request).
    for (const r of [ours, gemini]) {
      expect(toolNames(r, 0)).toContain('mcp_tiny_echo');
      expect(toolNames(r, 0)).not.toContain('google_web_search');
    }
    expect(toolNames(gemini, 2)).toContain('google_web_search');
    // The MCP server saw the setting, the policy denied rm, the skill body is hydrated.
    expect(toolAnswers(ours)).toEqual(toolAnswers(gemini));
    expect(ours.files['proj/a.txt']).toBe('hello\n');
    // The command hook ran for every call, with the setting in its environment (calls run in parallel).
    expect(lines(ours.files['proj/ext-hook.jsonl'])).toEqual(
      lines(gemini.files['proj/ext-hook.jsonl']),
    );
    // The broken ones are skipped with gemini's texts; the dropped allow rule is reported.
    for (const line of gemini.stderr.split('\n')) {
      if (/^(Warning: Skipping extension|\[ExtensionManager\]|\[PolicyConfig\])/.test(line)) {
        expect(ours.stderr).toContain(line);
      }
    }
  }, 180_000);
});
