import { readFile } from 'node:fs/promises';

/** The page's files: one HTML page, its script and its style sheet (no framework, no CDN). */
export const VIEWER_ASSETS = {
  'index.html': 'text/html; charset=utf-8',
  'viewer.js': 'text/javascript; charset=utf-8',
  'viewer.css': 'text/css; charset=utf-8',
} as const;

/** One of {@link VIEWER_ASSETS}. */
export type ViewerAssetName = keyof typeof VIEWER_ASSETS;

const cache = new Map<ViewerAssetName, Promise<Buffer>>();

/** Reads an asset from `assets/` beside this module (copied to `dist/viewer/assets/` by the build), once. */
export function viewerAsset(name: ViewerAssetName): Promise<Buffer> {
  let pending = cache.get(name);
  if (pending === undefined) {
    pending = readFile(new URL(`./assets/${name}`, import.meta.url));
    pending.catch(() => cache.delete(name));
    cache.set(name, pending);
  }
  return pending;
}
