#!/usr/bin/env node
/**
 * Removes comments from the compiled JavaScript under a folder (default `dist/`), in place: the TSDoc lives on in
 * the `.d.ts` files next to them, which is what editors show, and the shipped `.js` gets about 25 % smaller
 * (docs/packaging.md, "Installed footprint"). esbuild reprints each file as it is (no bundling, no minifying, no
 * syntax lowering), keeping the `#!` line and dropping every comment. Silent: `npm pack --json` reads stdout.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { transformSync } from 'esbuild';

const root = process.argv[2] ?? 'dist';
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.name.endsWith('.js')) {
      const source = readFileSync(path, 'utf8');
      const { code } = transformSync(source, {
        loader: 'js',
        format: 'esm',
        target: 'esnext',
        legalComments: 'none',
        charset: 'utf8',
      });
      writeFileSync(path, code);
    }
  }
};
walk(root);
