#!/usr/bin/env node
// `npm run demo`: runs examples/demo.ts with tsx. Without GEMINI_API_KEY the demo replays the recorded
// responses in examples/replays/; unless GEMINI_CLI_HOME is set it keeps its sessions in a temporary one (never ~/.gemini).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env };
let home;
if (!process.env.GEMINI_CLI_HOME) {
  home = mkdtempSync(join(tmpdir(), 'gemini-agent-demo-'));
  env.GEMINI_CLI_HOME = home;
}

const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const child = spawn(
  process.execPath,
  [tsx, '--tsconfig', join(root, 'examples', 'tsconfig.json'), join(root, 'examples', 'demo.ts')],
  { cwd: root, env, stdio: 'inherit' },
);

// Ctrl-C reaches the child directly (same process group); wait for it to finish and report its exit.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));

child.on('exit', (code, signal) => {
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
  if (signal !== null) process.exit(signal === 'SIGINT' ? 130 : 1);
  process.exit(code ?? 1);
});
