#!/usr/bin/env node
/**
 * Bundles the compiled JavaScript under `dist/` in place (part of `npm run build`, after tsc): every public entry
 * point (package.json `exports` and `bin`) becomes one ES module, the code they share goes into chunks under
 * `dist/_chunks/`, and modules loaded with `await import()` stay separate chunks, loaded on first use. Packages stay
 * external (`import … from 'zod'`). Importing the package then evaluates a handful of files instead of ~300, which
 * is most of its import cost (goal P2, docs/benchmarks.md; decision D25 in docs/decisions.md). The `.d.ts`
 * files tsc wrote are kept as they are; the per-module `.js` files the bundle replaces are removed. Every entry
 * keeps its path, so `dist/` works the same bundled or as plain tsc output (the tests may rebuild it with tsc).
 * Silent: `npm pack --json` reads stdout.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import process from 'node:process';
import { build } from 'esbuild';

const root = process.argv[2] ?? 'dist';
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

/** The entry files under `root`, from `exports` (the `default` condition) and `bin`. */
function entryPoints() {
  const out = new Set();
  for (const target of Object.values(pkg.exports ?? {})) {
    const file = typeof target === 'string' ? target : target?.default;
    if (typeof file === 'string' && file.endsWith('.js')) out.add(file.replace(/^\.\//, ''));
  }
  for (const file of Object.values(
    typeof pkg.bin === 'string' ? { bin: pkg.bin } : (pkg.bin ?? {}),
  ))
    out.add(file.replace(/^\.\//, ''));
  const prefix = `${root.replace(/\/$/, '')}/`;
  return [...out].filter((f) => f.startsWith(prefix) && existsSync(f));
}

const entries = entryPoints();
if (!entries.includes(join(root, 'index.js'))) {
  process.stderr.write(`bundle-dist: ${root}/index.js is missing; run tsc first.\n`);
  process.exit(1);
}

const result = await build({
  entryPoints: entries,
  outdir: root,
  outbase: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  chunkNames: '_chunks/[name]-[hash]',
  legalComments: 'none',
  charset: 'utf8',
  allowOverwrite: true,
  metafile: true,
  logLevel: 'warning',
  // Not the repository's tsconfig.json: its `paths` map `gemini-agent-sdk/*` to src/, and the CLI's
  // `import('gemini-agent-sdk/postgres')` must stay the package's own (external) entry point.
  tsconfigRaw: '{}',
});

// Remove every .js file the bundle did not write (the per-module tsc output it replaced).
const written = new Set(
  Object.keys(result.metafile.outputs).map((p) => relative(root, p).split(sep).join('/')),
);
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.js')) {
      const rel = relative(root, path).split(sep).join('/');
      if (!written.has(rel)) rmSync(path);
    }
  }
};
walk(root);
