#!/usr/bin/env node
/**
 * Deletes the `.d.ts` files under `dist/` that no entry point's types reach: `tsc` writes one per source file,
 * but a user can only import the entry points `package.json` exports, so the declarations of internal modules
 * (the CLI, the ACP connection, …) are dead weight in the install (docs/packaging.md, "Installed footprint").
 * The walk follows every relative `import` / `export … from` / `import("…")` of each reached declaration file,
 * starting at the `types` of every `exports` entry. Silent: `npm pack --json` reads stdout.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';

const root = resolve(process.argv[2] ?? 'dist');
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const entries = [pkg.types, ...Object.values(pkg.exports).map((e) => e?.types)].filter(
  (t) => typeof t === 'string',
);

const reached = new Set();
const visit = (file) => {
  if (reached.has(file)) return;
  if (!existsSync(file)) throw new Error(`prune-declarations: ${file} is referenced but missing`);
  reached.add(file);
  const source = readFileSync(file, 'utf8');
  for (const m of source.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g,
  )) {
    visit(resolve(dirname(file), m[1].replace(/\.js$/, '.d.ts')));
  }
};
for (const entry of entries) visit(resolve(entry));

const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.d.ts') && !reached.has(path)) rmSync(path);
  }
};
walk(root);
