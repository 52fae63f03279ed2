import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ownPackageRoot } from './package-json.js';

const load = createRequire(import.meta.url);

/** The vendored files of the published package: each module id → the file under `dir` that exports it. */
interface Vendored {
  readonly dir: string;
  readonly files: Readonly<Record<string, string>>;
}
let vendored: Vendored | null | undefined;

/** `dist/_vendor/modules.json`, written by scripts/bundle-dist.mjs; null where there is none (the sources). */
function vendoredModules(): Vendored | null {
  if (vendored !== undefined) return vendored;
  const root = ownPackageRoot();
  vendored = null;
  if (root !== null) {
    const dir = join(root, 'dist', '_vendor');
    try {
      vendored = {
        dir,
        files: JSON.parse(readFileSync(join(dir, 'modules.json'), 'utf8')) as Record<
          string,
          string
        >,
      };
    } catch {
      // not a build with vendored libraries: the installed packages are loaded
    }
  }
  return vendored;
}

/**
 * Loads library `id` when it is first needed rather than when the SDK is imported (goal P2), synchronously.
 *
 * The libraries in scripts/inlined-dependencies.json are not installed with the published package: `npm run build`
 * bundles each group of them into one file under `dist/_vendor/` (Ajv and `ajv-formats` share one, so they share
 * Ajv's classes) and lists which file exports which id in `dist/_vendor/modules.json`; this loads `id` from there —
 * the exact version we tested, whatever the app has installed (decision D31). Without that list (the sources,
 * plain tsc output) the installed package is loaded. Node caches both, so repeated calls are cheap.
 *
 * @param id the module, as it would be passed to `require()` (`ajv/dist/2020`)
 */
export function lazyRequire<T>(id: string): T {
  const modules = vendoredModules();
  const file = modules?.files[id];
  if (modules === null || file === undefined) return load(id) as T;
  return (load(join(modules.dir, file)) as Record<string, unknown>)[id] as T;
}

/**
 * Node's built-in module `id` (`node:https`), loaded synchronously on its first use rather than when the SDK is
 * imported. Some built-ins cost a fresh process several milliseconds and a few MiB to load (`node:https` brings
 * `http` and `tls`, ~9 ms and 3.5 MiB); a one-shot CLI run that never fetches a URL or spawns a process does not
 * pay for them (goal P1). Node caches the module, so repeated calls are cheap.
 *
 * @param id the built-in, with its `node:` prefix
 */
export function builtinModule<T>(id: `node:${string}`): T {
  return load(id) as T;
}
