import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessCli } from './helpers/in-process-cli.js';

const cli = inProcessCli;

function project(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agents-cli-')));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const auditor = `---
name: security-auditor
description: Finds security problems in code.
display_name: Security Auditor
---
You audit code.`;
const plain = `---
name: summarizer
description: |
  Summarizes files.
  Keeps it short.
---
You summarize.`;

describe('gemini-agent agents', () => {
  it("list prints gemini's /agents list: Local Agents, display name (name), the description below", async () => {
    const cwd = project({
      '.gemini/agents/auditor.md': auditor,
      '.gemini/agents/summarizer.md': plain,
      '.gemini/agents/broken.md': '---\nname: Bad Name\ndescription: x\n---\nbody',
    });
    const run = await cli(['agents', 'list', '--skip-trust'], cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'Local Agents\n\n' +
        '  - Security Auditor (security-auditor)\n    Finds security problems in code.\n' +
        '  - summarizer\n    Summarizes files.\n    Keeps it short.\n',
    );
    expect(run.stderr).toContain('Warning: Agent loading error: Failed to load agent from');
    expect(run.stderr).toContain('broken.md');

    const json = await cli(['agents', '-o', 'json', '--skip-trust'], cwd);
    const parsed = JSON.parse(json.stdout) as {
      agents: Array<Record<string, unknown>>;
      warnings: string[];
    };
    expect(parsed.agents.map((a) => [a['name'], a['enabled']])).toEqual([
      ['security-auditor', true],
      ['summarizer', true],
    ]);
    expect(parsed.warnings).toHaveLength(1);
  });

  it('an untrusted folder lists no workspace agents; an empty list says so', async () => {
    const cwd = project({ '.gemini/agents/auditor.md': auditor });
    const run = await cli(['agents', 'list'], cwd);
    expect(run).toMatchObject({ code: 0, stdout: 'No agents available.\n' });
  });

  it("disable and enable edit agents.overrides.<name>.enabled with gemini's messages", async () => {
    const cwd = project({
      '.gemini/agents/auditor.md': auditor,
      '.gemini/settings.json': '{\n  // keep me\n  "model": { "name": "gemini-2.5-flash" }\n}\n',
    });
    const settingsFile = join(cwd, '.gemini', 'settings.json');
    const off = await cli(['agents', 'disable', 'security-auditor', '--skip-trust'], cwd);
    expect(off.code).toBe(0);
    expect(off.stdout).toBe(
      `Agent "security-auditor" disabled by setting it to disabled in project (${settingsFile}) settings.\n`,
    );
    const text = readFileSync(settingsFile, 'utf8');
    expect(text).toContain('// keep me');
    expect(JSON.parse(text.replace('// keep me', ''))).toEqual({
      model: { name: 'gemini-2.5-flash' },
      agents: { overrides: { 'security-auditor': { enabled: false } } },
    });
    const listed = await cli(['agents', 'list', '--skip-trust'], cwd);
    expect(listed.stdout).toContain('No agents available.');
    expect(listed.stdout).toContain('Disabled Agents');
    expect(listed.stdout).toContain('  - Security Auditor (security-auditor)');
    expect((await cli(['agents', 'disable', 'security-auditor', '--skip-trust'], cwd)).stdout).toBe(
      "Agent 'security-auditor' is already disabled.\n",
    );

    const on = await cli(['agents', 'enable', 'security-auditor', '--skip-trust'], cwd);
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(
      /^Agent "security-auditor" enabled by setting it to enabled in project \(.*settings\.json\) and user \(.*settings\.json\) settings\.\n$/,
    );
    expect((await cli(['agents', 'list', '--skip-trust'], cwd)).stdout).toContain('Local Agents');
    expect((await cli(['agents', 'enable', 'security-auditor', '--skip-trust'], cwd)).stdout).toBe(
      "Agent 'security-auditor' is already enabled.\n",
    );
  });

  it('unknown agents, commands and flags are clear errors', async () => {
    const cwd = project({});
    const missing = await cli(['agents', 'disable', 'nobody'], cwd);
    expect(missing).toMatchObject({ code: 1, stderr: "Agent 'nobody' not found.\n" });
    expect((await cli(['agents', 'enable', 'nobody'], cwd)).stderr).toBe(
      "Agent 'nobody' not found.\n",
    );
    const usage = await cli(['agents', 'disable'], cwd);
    expect(usage.code).not.toBe(0);
    expect(usage.stderr).toContain('Usage: gemini-agent agents disable <agent-name>');
    expect((await cli(['agents', 'frobnicate'], cwd)).stderr).toContain(
      'Unknown agents command "frobnicate"',
    );
    expect((await cli(['agents', 'list', '-o', 'xml'], cwd)).stderr).toContain(
      'must be text or json',
    );
    expect((await cli(['agents', '--help'], cwd)).stdout).toContain(
      'Usage: gemini-agent agents <command>',
    );
  });
});
