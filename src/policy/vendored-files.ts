import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files the package vendors instead of depending on their npm packages (see `vendor/*\/README.md`), relative
 * to the package root: the bash grammar and the tree-sitter runtime that loads it.
 */
export const VENDORED = {
  /** tree-sitter-bash's grammar, as WebAssembly, gzip-compressed (1.3 MB → 176 kB; inflated when loaded). */
  bashGrammar: join('vendor', 'tree-sitter-bash', 'tree-sitter-bash.wasm.gz'),
  /** web-tree-sitter's CommonJS runtime (it runs `treeSitterWasm`). */
  treeSitter: join('vendor', 'web-tree-sitter', 'web-tree-sitter.cjs'),
  /** web-tree-sitter's WebAssembly core, gzip-compressed (211 kB → 83 kB; inflated and handed to the runtime). */
  treeSitterWasm: join('vendor', 'web-tree-sitter', 'web-tree-sitter.wasm.gz'),
} as const;

/**
 * The absolute path of a vendored file: found by walking up from this module to the package root, so it resolves
 * the same from `src/` and from `dist/cjs/`.
 *
 * @throws Error naming the file when the package was installed without it.
 */
export function vendoredFile(
  relative: string,
  from: string = fileURLToPath(import.meta.url),
): string {
  let dir = dirname(from);
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(
    `The file ${relative} is missing from the gemini-agent-sdk package (looked above ${dirname(from)}). ` +
      'Reinstall the package.',
  );
}
