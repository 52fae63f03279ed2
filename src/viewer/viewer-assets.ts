import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownPackageRoot } from '../package-json.js';

/** The page's files: one HTML page, its script and its style sheet (no framework, no CDN). */
export const VIEWER_ASSETS = {
  'index.html': 'text/html; charset=utf-8',
  'viewer.js': 'text/javascript; charset=utf-8',
  'viewer.css': 'text/css; charset=utf-8',
} as const;

/** One of {@link VIEWER_ASSETS}. */
export type ViewerAssetName = keyof typeof VIEWER_ASSETS;

const cache = new Map<ViewerAssetName, Promise<Buffer>>();

/**
 * Where the assets are: `src/viewer/assets/` when running from the sources, else `dist/viewer/assets/` (copied
 * there by the build) under the package root — the bundled `dist/` keeps this code in a chunk elsewhere.
 */
function assetPath(name: ViewerAssetName): string {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return join(here, '..', 'assets', name);
  const root = ownPackageRoot();
  return root === null
    ? join(here, '..', 'assets', name)
    : join(root, 'dist', 'viewer', 'assets', name);
}

/** Reads an asset (see {@link assetPath}), once. */
export function viewerAsset(name: ViewerAssetName): Promise<Buffer> {
  let pending = cache.get(name);
  if (pending === undefined) {
    pending = readFile(assetPath(name));
    pending.catch(() => cache.delete(name));
    cache.set(name, pending);
  }
  return pending;
}
