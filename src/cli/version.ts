import { readFileSync } from 'node:fs';

/**
 * The package version, read from the package.json two levels up (the same relative place from
 * `src/cli/` and from `dist/cli/`).
 */
export function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed === 'object' && parsed !== null && 'version' in parsed) {
    const { version } = parsed;
    if (typeof version === 'string') return version;
  }
  return 'unknown';
}
