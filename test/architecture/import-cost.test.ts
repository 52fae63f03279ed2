/**
 * What `import 'gemini-agent-sdk'` loads (goal P2 in bench/, docs/benchmarks.md): the static import closure of
 * each public entry point, computed from the sources as TypeScript emits them (type-only imports erased), must
 * not reach a package that only some requests need. Those are loaded with `await import()` / `createRequire` on
 * first use. A structural check, not a timing: the figures are in `npm run bench`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Packages no public entry point may load at import time (each is loaded lazily where it is needed). */
const LAZY_PACKAGES = [
  '@google/genai',
  'google-auth-library',
  'openai',
  'js-yaml',
  'smol-toml',
  'web-tree-sitter',
  '@modelcontextprotocol/sdk',
  '@agentclientprotocol/sdk',
  'ajv',
  'ajv-formats',
  'pg',
  'zod-to-json-schema',
  'diff',
  'ipaddr.js',
  're2js',
];

/**
 * The static imports of one file as emitted under `verbatimModuleSyntax` (the repository's setting): every
 * `import … from`, `export … from` and bare `import '…'` except `import type` / `export type`. An import whose
 * names are all `type`-marked is still emitted (as `import {} from`), so it counts.
 */
function emittedStaticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.isTypeOnly) continue;
      if (ts.isStringLiteral(statement.moduleSpecifier)) out.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly || statement.moduleSpecifier === undefined) continue;
      if (ts.isStringLiteral(statement.moduleSpecifier)) out.push(statement.moduleSpecifier.text);
    }
  }
  return out;
}

/** Every package (by name) the static closure of `entry` loads, with one chain of files leading to it. */
function staticClosure(entry: string): Map<string, string[]> {
  return closureOf(entry).packages;
}

/** The static closure of `entry`: the packages and the source files it loads, each with one chain leading to it. */
function closureOf(entry: string): {
  packages: Map<string, string[]>;
  files: Map<string, string[]>;
  builtins: Map<string, string[]>;
} {
  const packages = new Map<string, string[]>();
  const builtins = new Map<string, string[]>();
  const seen = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const chain = seen.get(file) ?? [];
    for (const spec of emittedStaticImports(file)) {
      if (spec.startsWith('node:')) {
        if (!builtins.has(spec)) builtins.set(spec, [...chain, spec]);
        continue;
      }
      if (spec.startsWith('.')) {
        const target = join(dirname(file), spec).replace(/\.js$/, '.ts');
        if (!seen.has(target)) {
          seen.set(target, [...chain, target]);
          queue.push(target);
        }
        continue;
      }
      const name = spec.startsWith('@')
        ? spec.split('/').slice(0, 2).join('/')
        : (spec.split('/')[0] ?? spec);
      if (!packages.has(name)) packages.set(name, [...chain, spec]);
    }
  }
  return { packages, files: seen, builtins };
}

/**
 * The `gemini-agent` subcommands and modes a `-p` one-shot run does not use: src/cli/run-cli.ts loads each with
 * `await import()` when its subcommand or flag is given (goal P1).
 */
const CLI_ON_DEMAND = [
  'postgres-command',
  'mcp-command',
  'extensions-command',
  'hooks-command',
  'skills-command',
  'agents-command',
  'login-command',
  'view-command',
  'show-config',
  'run-acp',
  'repl',
  'repl-questions',
  'sessions-command',
];

const rel = (p: string): string =>
  p.startsWith(SRC) ? `src/${relative(SRC, p).split(sep).join('/')}` : p;

/**
 * Node built-ins that cost a fresh process milliseconds and MiB to load (`node:https` brings `http` and `tls`) and
 * that a replay `-p` run never uses: loaded with `builtinModule()` (src/lazy-require.ts) where a URL is fetched, a
 * process spawned or a server started (goal P1).
 */
const LAZY_BUILTINS = [
  'node:child_process',
  'node:http',
  'node:https',
  'node:tls',
  'node:zlib',
  'node:dns',
  'node:dns/promises',
  'node:readline',
];

describe('import cost: what the public entry points load eagerly', () => {
  for (const entry of ['index.ts', 'policy/index.ts', 'sessions/index.ts', 'cli/main.ts']) {
    it(`src/${entry} loads none of the lazily loaded packages`, () => {
      const closure = staticClosure(join(SRC, entry));
      const offenders = LAZY_PACKAGES.filter((p) => closure.has(p)).map(
        (p) => `${p}: ${(closure.get(p) ?? []).map(rel).join(' → ')}`,
      );
      expect(offenders).toEqual([]);
      expect(closure.has('zod')).toBe(true);
    });
  }

  it('src/cli/main.ts loads no subcommand module until its subcommand runs', () => {
    const { files } = closureOf(join(SRC, 'cli/main.ts'));
    const offenders = CLI_ON_DEMAND.map((name) => join(SRC, 'cli', `${name}.ts`))
      .filter((file) => files.has(file))
      .map((file) => (files.get(file) ?? []).map(rel).join(' → '));
    expect(offenders).toEqual([]);
    expect(files.has(join(SRC, 'cli/run-prompt.ts'))).toBe(true);
  });

  it('src/cli/main.ts loads no built-in that only fetching, spawning or serving needs', () => {
    const { builtins } = closureOf(join(SRC, 'cli/main.ts'));
    const offenders = LAZY_BUILTINS.filter((b) => builtins.has(b)).map((b) =>
      (builtins.get(b) ?? []).map(rel).join(' → '),
    );
    expect(offenders).toEqual([]);
    expect(builtins.has('node:fs')).toBe(true);
  });

  it('follows value imports through a chain of files and erases type-only ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-cost-'));
    try {
      writeFileSync(join(dir, 'a.ts'), "import { b } from './b.js';\nexport const a = b;\n");
      writeFileSync(
        join(dir, 'b.ts'),
        "import { parse } from 'yaml';\nimport type { OpenAI } from 'openai';\n" +
          "import { type Pool } from 'pg';\nexport { c } from './c.js';\n" +
          'export const b = (x: OpenAI, p: Pool) => parse(String(x) + String(p));\n',
      );
      writeFileSync(join(dir, 'c.ts'), "export const c = async () => import('ajv');\n");
      const closure = staticClosure(join(dir, 'a.ts'));
      expect([...closure.keys()].sort()).toEqual(['pg', 'yaml']);
      expect(closure.get('yaml')?.map((p) => p.replace(dir, ''))).toEqual([
        '/a.ts',
        '/b.ts',
        'yaml',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
