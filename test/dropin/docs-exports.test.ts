/**
 * The documented API and the real exports agree: every name the reference SDK exports, every name a code block
 * in README.md or docs/ imports from `gemini-agent-sdk` (or a subpath), and every name docs/api.md lists in its
 * "Exported names" list exists in that entry point's `index.ts`. Types count: each entry lists its exports by
 * name, which is what is parsed here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';
import * as model from '../../src/model/index.js';
import * as policy from '../../src/policy/index.js';
import * as postgres from '../../src/postgres/index.js';
import * as sessions from '../../src/sessions/index.js';
import * as testing from '../../src/testing/index.js';
import * as testingVitest from '../../src/testing/vitest/index.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** The runtime values of each entry point. */
const MODULES: Record<string, object> = {
  'gemini-agent-sdk': root,
  'gemini-agent-sdk/policy': policy,
  'gemini-agent-sdk/sessions': sessions,
  'gemini-agent-sdk/model': model,
  'gemini-agent-sdk/testing': testing,
  'gemini-agent-sdk/testing/vitest': testingVitest,
  'gemini-agent-sdk/postgres': postgres,
};

/** Entry points (as imported) → their index file. */
const ENTRIES: Record<string, string> = {
  'gemini-agent-sdk': 'src/index.ts',
  'gemini-agent-sdk/policy': 'src/policy/index.ts',
  'gemini-agent-sdk/sessions': 'src/sessions/index.ts',
  'gemini-agent-sdk/model': 'src/model/index.ts',
  'gemini-agent-sdk/testing': 'src/testing/index.ts',
  'gemini-agent-sdk/testing/vitest': 'src/testing/vitest/index.ts',
  'gemini-agent-sdk/postgres': 'src/postgres/index.ts',
};

/**
 * What `@google/gemini-cli-sdk` exports (packages/sdk/src/*.ts of gemini-cli, commit 5411f113, the one
 * test/dropin/reference/ comes from): code written for it imports these.
 */
const REFERENCE_EXPORTS = [
  'GeminiCliAgent',
  'GeminiCliSession',
  'z',
  'ModelVisibleError',
  'ToolDefinition',
  'Tool',
  'SdkTool',
  'tool',
  'SkillReference',
  'skillDir',
  'SystemInstructions',
  'GeminiCliAgentOptions',
  'AgentFilesystem',
  'AgentShellOptions',
  'AgentShellResult',
  'AgentShell',
  'SessionContext',
];

/** The names an index file exports: `export { a, b as c }`, `export type { … }`, and declarations. */
function exportedNames(file: string): Set<string> {
  const source = readFileSync(join(ROOT, file), 'utf8');
  const names = new Set<string>();
  for (const m of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const item of (m[1] as string).split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1);
      if (name) names.add(name);
    }
  }
  for (const m of source.matchAll(
    /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:class|function|const|let|interface|type|enum)\s+(\w+)/gm,
  )) {
    names.add(m[1] as string);
  }
  return names;
}

/** `import { … } from 'gemini-agent-sdk…'` statements in the fenced code blocks of a markdown file. */
function documentedImports(markdown: string): Array<{ entry: string; name: string }> {
  const found: Array<{ entry: string; name: string }> = [];
  for (const block of markdown.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    for (const m of (block[1] as string).matchAll(
      /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(gemini-agent-sdk[^']*)'/g,
    )) {
      for (const item of (m[1] as string).split(',')) {
        const name = item
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        if (name) found.push({ entry: m[2] as string, name });
      }
    }
  }
  return found;
}

const markdownFiles = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];

describe('documented names are exported', () => {
  it('every name the reference SDK exports', () => {
    const exported = exportedNames(ENTRIES['gemini-agent-sdk'] as string);
    expect(REFERENCE_EXPORTS.filter((name) => !exported.has(name))).toEqual([]);
  });

  it('every name a code block in README.md or docs/ imports', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of markdownFiles) {
      for (const { entry, name } of documentedImports(readFileSync(join(ROOT, file), 'utf8'))) {
        const index = ENTRIES[entry];
        checked++;
        if (index === undefined) missing.push(`${file}: unknown entry point ${entry}`);
        else if (!exportedNames(index).has(name)) missing.push(`${file}: ${name} from ${entry}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it("every name in docs/api.md's list of exported names, and no exported value missing from it", () => {
    const api = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
    const section = api.split('## Exported names')[1]?.split(/\n## /)[0] ?? '';
    const rows = [...section.matchAll(/^- `(gemini-agent-sdk[^`]*)`: (.+)$/gm)];
    expect(rows.map((r) => r[1]).sort()).toEqual(Object.keys(ENTRIES).sort());
    for (const [, entry, cell] of rows) {
      const names = [...(cell as string).matchAll(/`(\w+)`/g)].map((m) => m[1] as string);
      const exported = exportedNames(ENTRIES[entry as string] as string);
      expect(
        names.filter((n) => !exported.has(n)),
        `${entry}: documented, not exported`,
      ).toEqual([]);
      const values = Object.keys(MODULES[entry as string] as object);
      expect(
        values.filter((v) => !names.includes(v)),
        `${entry}: exported, not documented`,
      ).toEqual([]);
    }
  });
});
