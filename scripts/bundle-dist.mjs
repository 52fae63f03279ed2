#!/usr/bin/env node
/**
 * Bundles the compiled JavaScript under `dist/` in place (part of `npm run build`, after tsc): every public entry
 * point (package.json `exports` and `bin`) becomes one ES module, the code they share goes into chunks under
 * `dist/_chunks/`, and modules loaded with `await import()` stay separate chunks, loaded on first use. Packages stay
 * external (`import … from 'zod'`); a bare import left in the output must name a `dependencies` or `peerDependencies`
 * entry, or the build fails. The small libraries in scripts/inlined-dependencies.json are not dependencies: each
 * group of them is bundled into `dist/_vendor/<group>.cjs` (their licences copied to `dist/licenses/`), loaded on
 * first use by src/lazy-require.ts, so an install does not carry their several builds each (issue 17's footprint;
 * decision D31 in docs/decisions.md). Importing the package then evaluates a handful of files instead of ~300, which
 * is most of its import cost (goal P2, docs/benchmarks.md; decision D25 in docs/decisions.md). The `.d.ts`
 * files tsc wrote are kept as they are; the per-module `.js` files the bundle replaces are removed. Every entry
 * keeps its path, so `dist/` works the same bundled or as plain tsc output (the tests may rebuild it with tsc).
 * Silent: `npm pack --json` reads stdout.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
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

/** `zod/v4` → `zod`, `@scope/pkg/x` → `@scope/pkg`. */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const isBuiltin = (specifier) =>
  specifier.startsWith('node:') || builtinModules.includes(specifier);

// A bare import the output keeps must be installed with the package.
const installed = new Set([
  pkg.name,
  'vitest', // only `gemini-agent-sdk/testing/vitest` imports it, for projects that test with vitest
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
]);
const missing = new Set();
for (const output of Object.values(result.metafile.outputs))
  for (const imp of output.imports)
    if (imp.external && !isBuiltin(imp.path) && !installed.has(packageOf(imp.path)))
      missing.add(imp.path);
if (missing.size > 0) {
  process.stderr.write(
    `bundle-dist: dist imports ${[...missing].join(', ')}, which package.json does not depend on.\n`,
  );
  process.exit(1);
}

// The vendored libraries: one CommonJS file per group exporting each of its module ids, and `modules.json`
// saying which file has which id (read by src/lazy-require.ts).
/** @type {Record<string, string[]>} */
const groups = JSON.parse(readFileSync('scripts/inlined-dependencies.json', 'utf8'));
rmSync(join(root, '_vendor'), { recursive: true, force: true });
rmSync(join(root, 'licenses'), { recursive: true, force: true });
const bundledPackages = new Set();
const modules = {};
for (const [group, ids] of Object.entries(groups)) {
  for (const id of ids)
    if (installed.has(packageOf(id))) {
      process.stderr.write(`bundle-dist: ${id} is vendored and also a dependency; pick one.\n`);
      process.exit(1);
    }
  const vendored = await build({
    stdin: {
      contents: `module.exports = {${ids.map((id) => `${JSON.stringify(id)}: require(${JSON.stringify(id)})`).join(', ')}};`,
      resolveDir: process.cwd(),
      loader: 'js',
    },
    outfile: join(root, '_vendor', `${group}.cjs`),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    legalComments: 'none',
    charset: 'utf8',
    metafile: true,
    logLevel: 'warning',
  });
  for (const id of ids) modules[id] = `${group}.cjs`;
  for (const input of Object.keys(vendored.metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match !== null) bundledPackages.add(match[1]);
  }
}

writeFileSync(join(root, '_vendor', 'modules.json'), `${JSON.stringify(modules, null, 2)}\n`);

// Their licences (and those of what they brought with them) travel with the code.
for (const name of bundledPackages) {
  const dir = join('node_modules', name);
  const licence = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  if (licence === undefined) {
    process.stderr.write(
      `bundle-dist: ${name} has no licence file to ship with its vendored code.\n`,
    );
    process.exit(1);
  }
  mkdirSync(join(root, 'licenses', name), { recursive: true });
  copyFileSync(join(dir, licence), join(root, 'licenses', name, 'LICENSE'));
}
