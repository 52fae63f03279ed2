import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'gemini-agent-sdk';
let cached: { version?: unknown } | null | undefined;
let cachedRoot: string | null = null;

/**
 * This package's own package.json, found by walking up from this module to the first package.json named
 * `gemini-agent-sdk` — the same from `src/`, from plain tsc output in `dist/<folder>/` and from the bundled
 * `dist/` (entry points and `dist/_chunks/` sit at different depths). Null when it cannot be read.
 */
export function ownPackageJson(): { version?: unknown } | null {
  if (cached !== undefined) return cached;
  let found: { version?: unknown } | null = null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 8; depth++) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        (parsed as { name?: unknown }).name === PACKAGE_NAME
      ) {
        found = parsed as { version?: unknown };
        cachedRoot = dir;
        break;
      }
    } catch {
      // no (readable) package.json here: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  cached = found;
  return found;
}

/** This package's version (from {@link ownPackageJson}), or undefined when it cannot be read. */
export function ownVersion(): string | undefined {
  const version = ownPackageJson()?.version;
  return typeof version === 'string' ? version : undefined;
}

/**
 * The folder holding this package's own package.json (see {@link ownPackageJson}), or null when it is not found.
 * Files shipped beside the code (`dist/viewer/assets/`) are found from here, whether `dist/` is bundled or not.
 */
export function ownPackageRoot(): string | null {
  ownPackageJson();
  return cachedRoot;
}
