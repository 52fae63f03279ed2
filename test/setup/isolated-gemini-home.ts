/**
 * vitest setupFiles entry: points `GEMINI_CLI_HOME` at a fresh temp folder per worker process, so sessions (the
 * agent stores them by default), `projects.json`, settings and skill discovery never touch the real `~/.gemini`
 * (nor `/etc/gemini-cli`). It runs
 * before every test file and resets the variable to the worker's folder, so a file that sets its own
 * `GEMINI_CLI_HOME` keeps working and does not leak it into the next file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KEY = 'GEMINI_AGENT_SDK_TEST_HOME';
const owner = `${process.pid}`;

if (process.env[`${KEY}_OWNER`] !== owner || process.env[KEY] === undefined) {
  const home = mkdtempSync(join(tmpdir(), `gemini-sdk-test-home-${owner}-`));
  process.env[KEY] = home;
  process.env[`${KEY}_OWNER`] = owner;
  process.on('exit', () => rmSync(home, { recursive: true, force: true }));
}
process.env['GEMINI_CLI_HOME'] = process.env[KEY];
// gemini-cli's system settings files live in /etc/gemini-cli: point them into the temp home (never present).
process.env['GEMINI_CLI_SYSTEM_SETTINGS_PATH'] = join(process.env[KEY], 'etc', 'settings.json');
process.env['GEMINI_CLI_SYSTEM_DEFAULTS_PATH'] = join(
  process.env[KEY],
  'etc',
  'system-defaults.json',
);
