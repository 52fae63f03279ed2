import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { VENDORED, vendoredFile } from './vendored-files.js';

const sha256 = (path: string): string =>
  createHash('sha256').update(readFileSync(path)).digest('hex');

describe('vendored files', () => {
  it('the bash grammar is tree-sitter-bash 0.25.1, unchanged once inflated, with its licence', () => {
    const path = vendoredFile(VENDORED.bashGrammar);
    const wasm = gunzipSync(readFileSync(path));
    expect(createHash('sha256').update(wasm).digest('hex')).toBe(
      '8292919c88a0f7d3fb31d0cd0253ca5a9531bc1ede82b0537f2c63dd8abe6a7a',
    );
    expect(wasm.subarray(0, 4)).toEqual(Buffer.from('\0asm', 'latin1'));
    expect(readFileSync(join(dirname(path), 'LICENSE'), 'utf8')).toMatch(/^The MIT License/);
  });

  it('the tree-sitter runtime is byte for byte the web-tree-sitter devDependency its types come from', () => {
    const require = createRequire(import.meta.url);
    const packageDir = dirname(require.resolve('web-tree-sitter/web-tree-sitter.wasm'));
    expect(sha256(vendoredFile(VENDORED.treeSitter))).toBe(
      sha256(join(packageDir, 'web-tree-sitter.cjs')),
    );
    // The Wasm core is stored gzip-compressed: once inflated it is the package's file.
    const wasm = gunzipSync(readFileSync(vendoredFile(VENDORED.treeSitterWasm)));
    expect(createHash('sha256').update(wasm).digest('hex')).toBe(
      sha256(join(packageDir, 'web-tree-sitter.wasm')),
    );
    expect(readFileSync(join(dirname(vendoredFile(VENDORED.treeSitter)), 'LICENSE'), 'utf8')).toBe(
      readFileSync(join(packageDir, 'LICENSE'), 'utf8'),
    );
  });

  it('are found from any depth below the package root (dist/cjs/…), and a missing one is named', () => {
    const root = mkdtempSync(join(tmpdir(), 'vendored-'));
    try {
      mkdirSync(join(root, 'vendor', 'tree-sitter-bash'), { recursive: true });
      mkdirSync(join(root, 'dist', 'cjs', 'policy'), { recursive: true });
      writeFileSync(join(root, VENDORED.bashGrammar), '');
      const module = join(root, 'dist', 'cjs', 'policy', 'bash-parser.js');
      expect(vendoredFile(VENDORED.bashGrammar, module)).toBe(join(root, VENDORED.bashGrammar));
      rmSync(join(root, 'vendor'), { recursive: true });
      expect(() => vendoredFile(VENDORED.bashGrammar, module)).toThrow(
        /tree-sitter-bash\.wasm\.gz is missing .* Reinstall/,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
