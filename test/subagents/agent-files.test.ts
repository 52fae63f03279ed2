import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeminiCliAgent, type ServerGeminiStreamEvent } from '../../src/index.js';
import { ScriptedModel, textTurn } from '../../src/testing/index.js';
import { parseAgentMarkdown } from '../../src/subagents/agent-file.js';
import { loadAgentsFromDirectory } from '../../src/subagents/agent-loader.js';
import {
  completeTurn,
  declaredTools,
  drain,
  invokeTurn,
  lastResponses,
  systemText,
} from './helpers.js';

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

function writeAgent(dir: string, file: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}

const VALID = `---
name: security-auditor
description: Finds security problems in code.
display_name: Security Auditor
tools:
  - read_file
  - grep_search
  - mcp_github_*
model: gemini-2.5-flash
temperature: 0.2
max_turns: 12
timeout_mins: 3
---

You audit code for \${query} today (\${today}).
`;

describe(".gemini/agents/*.md: gemini-cli's strict frontmatter", () => {
  it('maps every key of a valid file', () => {
    const d = parseAgentMarkdown('/x/security-auditor.md', VALID);
    expect(d).toMatchObject({
      name: 'security-auditor',
      description: 'Finds security problems in code.',
      displayName: 'Security Auditor',
      tools: ['read_file', 'grep_search', 'mcp_github_*'],
      model: 'gemini-2.5-flash',
      generationConfig: { temperature: 0.2, topP: 0.95 },
      maxTurns: 12,
      timeoutMs: 180_000,
      templated: true,
      source: '/x/security-auditor.md',
    });
    expect(d.instructions).toBe('You audit code for ${query} today (${today}).');
  });

  it('defaults: model inherit, temperature 1, 30 turns, 10 minutes, every tool', () => {
    const d = parseAgentMarkdown('/x/a.md', '---\nname: a\ndescription: d\n---\nBody');
    expect(d).toMatchObject({
      model: 'inherit',
      generationConfig: { temperature: 1, topP: 0.95 },
      maxTurns: 30,
      timeoutMs: 600_000,
      tools: undefined,
    });
  });

  it.each([
    [
      'an unknown key',
      '---\nname: a\ndescription: d\ncolor: red\n---\nx',
      /Unrecognized key.*color/,
    ],
    [
      'a bad name',
      '---\nname: Not A Slug\ndescription: d\n---\nx',
      /name: Name must be a valid slug/,
    ],
    ['no description', '---\nname: a\n---\nx', /description/],
    [
      'an invalid tool name',
      '---\nname: a\ndescription: d\ntools: [rm_rf]\n---\nx',
      /tools.0: Invalid tool name/,
    ],
    ['max_turns 0', '---\nname: a\ndescription: d\nmax_turns: 0\n---\nx', /max_turns/],
    ['no frontmatter', 'name: a\n', /Missing mandatory YAML frontmatter/],
    ['broken YAML', '---\nname: [a\n---\nx', /YAML frontmatter parsing failed/],
    // js-yaml's own message, as gemini-cli (same parser, same version) prints it.
    [
      'a duplicated key',
      '---\nname: a\nname: b\ndescription: d\n---\nx',
      /YAML frontmatter parsing failed: duplicated mapping key \(2:1\)/,
    ],
    [
      'a YAML array (remote agents)',
      '---\n- name: r\n  agent_card_url: https://x\n---\n',
      /Remote agents/,
    ],
    [
      'kind: remote',
      '---\nkind: remote\nname: r\nagent_card_url: https://x\n---\n',
      /Remote agents/,
    ],
  ])('refuses %s with a load error naming the file', (_what, text, pattern) => {
    expect(() => parseAgentMarkdown('/x/bad.md', text)).toThrow(
      /^Failed to load agent from \/x\/bad\.md: /,
    );
    expect(() => parseAgentMarkdown('/x/bad.md', text)).toThrow(pattern);
  });

  it("accepts the agent's own tool names when told them", () => {
    const text = '---\nname: a\ndescription: d\ntools: [lookup]\n---\nx';
    expect(() => parseAgentMarkdown('/x/a.md', text)).toThrow(/Invalid tool name/);
    expect(
      parseAgentMarkdown('/x/a.md', text, { knownToolNames: new Set(['lookup']) }).tools,
    ).toEqual(['lookup']);
  });

  it('a folder: .md files not starting with _ load; a bad file is reported, the others load', async () => {
    const dir = tempDir('agents-dir-');
    writeAgent(dir, 'good.md', '---\nname: good\ndescription: d\n---\nGood.');
    writeAgent(dir, 'bad.md', '---\nname: bad\ndescription: d\nwhat: 1\n---\nBad.');
    writeAgent(dir, '_draft.md', '---\nname: draft\ndescription: d\n---\nDraft.');
    writeAgent(dir, 'notes.txt', 'not an agent');
    const { agents, errors } = await loadAgentsFromDirectory(dir);
    expect(agents.map((a) => a.name)).toEqual(['good']);
    expect(errors.map((e) => e.filePath)).toEqual([join(dir, 'bad.md')]);
    expect((await loadAgentsFromDirectory(join(dir, 'missing'))).errors).toEqual([]);
  });
});

describe('agent files in an agent', () => {
  function project() {
    const home = tempDir('agents-home-');
    const cwd = tempDir('agents-cwd-');
    writeAgent(
      join(cwd, '.gemini', 'agents'),
      'helper.md',
      '---\nname: helper\ndescription: Project helper\n---\nYou help with ${query}.',
    );
    writeAgent(join(cwd, '.gemini', 'agents'), 'broken.md', '---\nname: broken\n---\nx');
    writeAgent(
      join(home, '.gemini', 'agents'),
      'helper.md',
      '---\nname: helper\ndescription: User helper\n---\nUser copy.',
    );
    writeAgent(
      join(home, '.gemini', 'agents'),
      'mine.md',
      '---\nname: mine\ndescription: Mine\ntools: [read_file]\n---\nMine.',
    );
    return { home, cwd };
  }

  it('loads the trusted workspace first, then the user; duplicates and load errors are warnings, never fatal', async () => {
    const { home, cwd } = project();
    const previous = process.env['GEMINI_CLI_HOME'];
    process.env['GEMINI_CLI_HOME'] = home;
    try {
      const model = new ScriptedModel([
        (request) => {
          expect(declaredTools(request)).toContain('invoke_agent');
          expect(systemText(request)).toContain(
            '<name>helper</name>\n    <description>Project helper</description>',
          );
          expect(systemText(request)).toContain('<name>mine</name>');
          return invokeTurn('helper', 'the docs');
        },
        (request) => {
          // The markdown body, templated with the task.
          expect(systemText(request)).toMatch(/^You help with the docs\./);
          expect(request.config?.temperature).toBe(1);
          expect(request.config?.topP).toBe(0.95);
          return completeTurn({ result: 'helped' });
        },
        (request) => {
          expect(JSON.stringify(lastResponses(request))).toContain('Result:\\nhelped');
          return textTurn('ok');
        },
      ]);
      await using agent = new GeminiCliAgent({
        cwd,
        trustWorkspace: true,
        contentGenerator: model,
        persist: false,
        builtinTools: false,
      });
      const events: ServerGeminiStreamEvent[] = await drain(agent.session().sendStream('go'));
      model.assertComplete();
      const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.value] : []));
      expect(warnings.map((w) => w.code).sort()).toEqual([
        'SUBAGENT_DUPLICATE',
        'SUBAGENT_LOAD_FAILED',
      ]);
      expect(warnings.find((w) => w.code === 'SUBAGENT_LOAD_FAILED')?.message).toContain(
        `Failed to load agent from ${join(cwd, '.gemini', 'agents', 'broken.md')}`,
      );
      const listing = await agent.subagents();
      expect(listing.subagents.map((s) => [s.name, s.source])).toEqual([
        ['helper', join(cwd, '.gemini', 'agents', 'helper.md')],
        ['mine', join(home, '.gemini', 'agents', 'mine.md')],
      ]);
    } finally {
      if (previous === undefined) delete process.env['GEMINI_CLI_HOME'];
      else process.env['GEMINI_CLI_HOME'] = previous;
    }
  });

  it("an untrusted workspace loads only the user's agents; agents.overrides disables or changes one", async () => {
    const { home, cwd } = project();
    const previous = process.env['GEMINI_CLI_HOME'];
    process.env['GEMINI_CLI_HOME'] = home;
    try {
      await using agent = new GeminiCliAgent({
        cwd,
        trustWorkspace: false,
        contentGenerator: new ScriptedModel([]),
        persist: false,
        settings: {
          overrides: {
            agents: {
              overrides: {
                mine: { enabled: false },
                helper: { runConfig: { maxTurns: 3 }, modelConfig: { model: 'gemini-2.5-pro' } },
              },
            },
          },
        },
      });
      const listing = await agent.subagents();
      expect(listing.subagents).toEqual([
        expect.objectContaining({
          name: 'helper',
          description: 'User helper',
          enabled: true,
          maxTurns: 3,
          model: 'gemini-2.5-pro',
        }),
        expect.objectContaining({ name: 'mine', enabled: false }),
      ]);
    } finally {
      if (previous === undefined) delete process.env['GEMINI_CLI_HOME'];
      else process.env['GEMINI_CLI_HOME'] = previous;
    }
  });
});
