import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ownPackageRoot } from './package-json.js';

const load = createRequire(import.meta.url);

/**
 * Loads library `id` when it is first needed rather than when the SDK is imported (goal P2), synchronously.
 *
 * The libraries in scripts/inlined-dependencies.json are not installed with the published package: `npm run build`
 * bundles each group of them into `dist/_vendor/<group>.cjs` (Ajv and `ajv-formats` share one file, so they share
 * Ajv's classes), which exports each id, and this loads `id` from its group's file — the exact version we tested,
 * whatever the app has installed (decision D31). Where that file does not exist (the sources, plain tsc output)
 * the installed package is loaded. Node caches both, so repeated calls are cheap.
 *
 * @param id the module, as it would be passed to `require()` (`ajv/dist/2020`)
 * @param group its vendored file, named after its package by default
 */
export function lazyRequire<T>(id: string, group: string = id): T {
  const root = ownPackageRoot();
  const vendored = root === null ? null : join(root, 'dist', '_vendor', `${group}.cjs`);
  if (vendored !== null && existsSync(vendored)) {
    const exports = load(vendored) as Record<string, T>;
    if (id in exports) return exports[id] as T;
  }
  return load(id) as T;
}
