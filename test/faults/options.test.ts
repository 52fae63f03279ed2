/**
 * Fault catalogue — configuration: every option is validated when the agent is constructed, with the field, what
 * it got and what it expects, instead of failing later inside a session (or being ignored).
 */
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  GeminiCliAgent,
  MemorySessionStore,
  skillDir,
  skillRoot,
  tool,
  z,
  type GeminiCliAgentOptions,
} from '../../src/index.js';
import { ScriptedModel, textTurn } from '../../src/testing/index.js';

const echo = tool({ name: 'echo', description: 'Echoes', inputSchema: z.object({}) }, () => 'e');

function errorOf(options: unknown): ConfigurationError {
  try {
    new GeminiCliAgent(options as GeminiCliAgentOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error('expected the constructor to throw');
}

describe('options are validated at construction', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['model of the wrong type', { model: 123 }, 'model: expected a string, got 123'],
    [
      'an unknown auth type',
      { authType: 'oauth' },
      "authType: expected one of 'oauth-personal', 'gemini-api-key'",
    ],
    ['an empty model', { model: '  ' }, 'model: expected a non-empty string, got "  "'],
    ['a missing cwd', { cwd: '/no/such/dir' }, 'cwd: "/no/such/dir" is not an existing directory'],
    [
      'a systemPrompt of the wrong type',
      { systemPrompt: 1 },
      'systemPrompt: the systemPrompt option must be',
    ],
    ['a null tool', { tools: [null] }, 'tools[0]: expected a tool made with tool()'],
    ['tools that are not an array', { tools: echo }, 'tools: expected an array'],
    [
      'a tool name Gemini rejects',
      { tools: [{ ...echo, name: 'has space' }] },
      'tools[0].name: "has space" is not a name Gemini accepts',
    ],
    [
      'duplicate tool names',
      { tools: [echo, echo] },
      'tools[1].name: "echo" is also the name of tools[0]',
    ],
    [
      'a tool named like a built-in',
      { tools: [{ ...echo, name: 'read_file' }] },
      'tools[0].name: "read_file" is the name of a built-in tool',
    ],
    ['a bad skill reference', { skills: ['./skills'] }, 'skills[0]: expected a skill reference'],
    [
      'maxTurns 0',
      { limits: { maxTurns: 0 } },
      'limits.maxTurns: expected a positive integer, got 0',
    ],
    [
      'a misspelt limit',
      { limits: { maxTurn: 3 } },
      'limits.maxTurn: unknown option (did you mean "maxTurns"?)',
    ],
    [
      'retry maxAttempts 0',
      { retry: { maxAttempts: 0 } },
      'retry.maxAttempts: expected a positive',
    ],
    ['retry true', { retry: true }, 'retry: expected false or an object'],
    ['a bad policy mode', { policy: { mode: 'fast' } }, 'policy.mode: Invalid option'],
    [
      'a bad temperature',
      { generationConfig: { temperature: 'hot' } },
      'generationConfig.temperature: expected a number from 0 to 2, got "hot"',
    ],
    [
      'systemInstruction in generationConfig',
      { generationConfig: { systemInstruction: 'x' } },
      'generationConfig.systemInstruction: is not allowed here: use the instructions option',
    ],
    [
      'a missing include directory',
      { includeDirectories: ['/no/such/include'] },
      'includeDirectories[0]: "/no/such/include" is not an existing directory',
    ],
    ['a fake sessionStore', { sessionStore: {} }, 'sessionStore: expected a SessionStore'],
    ['a non-boolean persist', { persist: 'yes' }, 'persist: expected true or false, got "yes"'],
    ['a bad approvals mode', { approvals: 'later' }, "approvals: expected 'ask' or 'pause'"],
    ['a bad baseUrl', { baseUrl: 'localhost:8080' }, 'baseUrl: expected an http(s) URL'],
    [
      'a misspelt option',
      { modle: 'gemini-2.5-pro' },
      'modle: unknown option (did you mean "model"?)',
    ],
  ])('%s', (_name, options, message) => {
    expect(errorOf(options).message).toContain(message);
  });

  it('lists every problem at once, each naming its field', () => {
    const { message } = errorOf({ model: 123, tools: [null], retry: { maxAttempts: 0 }, modle: 1 });
    expect(message).toMatch(/^Invalid GeminiCliAgent options: /);
    for (const field of ['model:', 'tools[0]:', 'retry.maxAttempts:', 'modle:'])
      expect(message).toContain(field);
  });

  it('keeps the reference SDK message for bad instructions', () => {
    expect(errorOf({ instructions: 123 }).message).toMatch(
      /^Instructions must be a string or a function\. /,
    );
  });

  it('accepts a complete, valid set of options and runs with it', async () => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), 'gas-opts-')));
    const agent = new GeminiCliAgent({
      instructions: 'Be brief.',
      systemPrompt: 'none',
      tools: [echo],
      builtinTools: 'read-only',
      skills: [skillDir(join(cwd, 'a')), skillRoot(join(cwd, 'b'))],
      skillDiscovery: { user: false, workspace: false },
      trustWorkspace: false,
      model: 'gemini-2.5-flash',
      cwd,
      includeDirectories: [tmpdir()],
      debug: false,
      contentGenerator: new ScriptedModel([textTurn('ok')]),
      retry: { maxAttempts: 2, initialDelayMs: 0, maxDelayMs: 0 },
      generationConfig: { temperature: 0.2, topP: 0.9, maxOutputTokens: 100 },
      limits: { maxTurns: 5, toolTimeoutMs: 1000 },
      policy: { mode: 'default', rules: [] },
      onApproval: () => 'deny',
      approvals: 'ask',
      approvalTtlMs: 60_000,
      sessionStore: new MemorySessionStore(),
    });
    expect((await agent.session().send('hi')).text).toBe('ok');
  });

  it('an option explicitly set to undefined is not an unknown key', () => {
    expect(() => new GeminiCliAgent({ model: undefined, ...{ later: undefined } })).not.toThrow();
  });
});
