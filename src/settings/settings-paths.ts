import { homedir, platform, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Environment } from './env-expansion.js';

/** Where gemini-cli keeps its files for one user: `$GEMINI_CLI_HOME`, else the OS home (else the temp dir). */
export function geminiHome(env: Environment = process.env): string {
  const fromEnv = env['GEMINI_CLI_HOME'];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  return homedir() || tmpdir();
}

/**
 * The system settings file (overrides every other file): `GEMINI_CLI_SYSTEM_SETTINGS_PATH`, else
 * `/etc/gemini-cli/settings.json` (Linux), `/Library/Application Support/GeminiCli/settings.json` (macOS) or
 * `C:\ProgramData\gemini-cli\settings.json` (Windows).
 */
export function systemSettingsPath(env: Environment = process.env): string {
  const override = env['GEMINI_CLI_SYSTEM_SETTINGS_PATH'];
  if (override !== undefined && override !== '') return override;
  switch (platform()) {
    case 'darwin':
      return '/Library/Application Support/GeminiCli/settings.json';
    case 'win32':
      return 'C:\\ProgramData\\gemini-cli\\settings.json';
    default:
      return '/etc/gemini-cli/settings.json';
  }
}

/** The system defaults file (the lowest file layer): `GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, else beside the system file. */
export function systemDefaultsPath(env: Environment = process.env): string {
  const override = env['GEMINI_CLI_SYSTEM_DEFAULTS_PATH'];
  if (override !== undefined && override !== '') return override;
  return join(dirname(systemSettingsPath(env)), 'system-defaults.json');
}

/** The user settings file: `<home>/.gemini/settings.json`. */
export function userSettingsPath(home: string): string {
  return join(home, '.gemini', 'settings.json');
}

/** The workspace settings file: `<cwd>/.gemini/settings.json`. */
export function workspaceSettingsPath(cwd: string): string {
  return join(cwd, '.gemini', 'settings.json');
}

/** `trustedFoldersPath`: `GEMINI_CLI_TRUSTED_FOLDERS_PATH`, else `<home>/.gemini/trustedFolders.json`. */
export function trustedFoldersPath(home: string, env: Environment = process.env): string {
  const override = env['GEMINI_CLI_TRUSTED_FOLDERS_PATH'];
  return override !== undefined && override !== ''
    ? resolve(override)
    : join(home, '.gemini', 'trustedFolders.json');
}
