/**
 * Imported first by every example: unless you set GEMINI_CLI_HOME yourself, the example's sessions (and
 * gemini-cli's projects.json) go to a temporary folder that is removed when the process exits — an example never
 * writes to your real ~/.gemini. Drop this import in your own code to keep sessions where gemini-cli looks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (!process.env['GEMINI_CLI_HOME']) {
  const home = mkdtempSync(join(tmpdir(), 'gemini-agent-example-'));
  process.env['GEMINI_CLI_HOME'] = home;
  process.on('exit', () => rmSync(home, { recursive: true, force: true }));
}
