import { ownVersion } from '../package-json.js';

/** The package version, read from this package's own package.json ('unknown' when it cannot be read). */
export function packageVersion(): string {
  return ownVersion() ?? 'unknown';
}
