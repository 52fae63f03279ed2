import { createRequire } from 'node:module';

/**
 * Loads a library when it is first needed rather than when the SDK is imported (goal P2), synchronously.
 *
 * `load` must be a plain `() => require('<id>')`. The published `dist` is bundled (scripts/bundle-dist.mjs) with
 * such libraries inlined, and the bundler turns that free `require()` into a module initialiser that runs only
 * when `load` is called, so an install does not need the package (issue 17's footprint, decision D31). Unbundled
 * ES modules (tsc output, the tests) have no `require`; there the installed package `id` is loaded instead.
 * Node and the bundle cache the module, so repeated calls are cheap.
 */
export function lazyRequire<T>(id: string, load: () => unknown): T {
  return (typeof require === 'function' ? load() : createRequire(import.meta.url)(id)) as T;
}
