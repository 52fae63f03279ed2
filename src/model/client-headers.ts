import { ownVersion } from '../package-json.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The SDK's version from its package.json ('unknown' when it cannot be read). */
export function sdkVersion(): string {
  return ownVersion() ?? 'unknown';
}

/**
 * gemini-cli's `parseCustomHeaders`: `GEMINI_CLI_CUSTOM_HEADERS="Name: value, Other: v"` → headers. A comma
 * followed by `key:` starts a new header; other commas and colons stay in the value.
 */
export function parseCustomHeaders(value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!value) return headers;
  for (const entry of value.split(/,(?=\s*[^,:]+:)/)) {
    const trimmed = entry.trim();
    const at = trimmed.indexOf(':');
    if (at <= 0) continue;
    const name = trimmed.slice(0, at).trim();
    if (name) headers[name] = trimmed.slice(at + 1).trim();
  }
  return headers;
}

/**
 * The headers gemini-cli sends to Google's model APIs: `User-Agent` in gemini-cli's format with this SDK as the
 * client name (`GeminiCLI-gemini-agent-sdk/<version>/<model> (<platform>; <arch>; <surface>)`; surface from
 * `GEMINI_CLI_SURFACE` / `SURFACE`, `GitHub` in Actions, else `terminal`), then `GEMINI_CLI_CUSTOM_HEADERS`.
 */
export function googleClientHeaders(model: string, env: Env = process.env): Record<string, string> {
  const surface =
    env['GEMINI_CLI_SURFACE'] || env['SURFACE'] || (env['GITHUB_SHA'] ? 'GitHub' : 'terminal');
  return {
    'User-Agent': `GeminiCLI-gemini-agent-sdk/${sdkVersion()}/${model} (${process.platform}; ${process.arch}; ${surface})`,
    ...parseCustomHeaders(env['GEMINI_CLI_CUSTOM_HEADERS']),
  };
}
