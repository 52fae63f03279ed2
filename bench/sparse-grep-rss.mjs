#!/usr/bin/env node
/**
 * Peak memory of grep_search over a workspace holding a 1 GiB sparse file (issue 15: every read path honours
 * one cap). Prints the child's peak RSS. Run after `npm run build`:
 *
 *   node bench/sparse-grep-rss.mjs            # this checkout's dist/
 *   node bench/sparse-grep-rss.mjs <dist dir> # another build, for a before/after comparison
 */
import process from 'node:process';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.argv[2] ?? path.join(here, '..', 'dist'));

if (process.argv[3] === '--child') {
  const { createWorkspace } = await import(
    pathToFileURL(path.join(dist, 'workspace', 'workspace.js')).href
  );
  const { createBuiltinTools } = await import(
    pathToFileURL(path.join(dist, 'tools', 'builtin', 'create-builtin-tools.js')).href
  );
  const ws = process.argv[4];
  const workspace = createWorkspace({ cwd: ws });
  const grep = createBuiltinTools('all').find((t) => t.name === 'grep_search');
  const ctx = {
    sessionId: 's',
    transcript: [],
    cwd: workspace.cwd,
    timestamp: '',
    fs: workspace.fs,
    shell: workspace.shell,
    signal: new globalThis.AbortController().signal,
  };
  const result = await grep.execute({ pattern: 'needle' }, ctx, {
    callId: 'c',
    signal: new globalThis.AbortController().signal,
  });
  const text =
    typeof result.llmContent === 'string' ? result.llmContent : JSON.stringify(result.llmContent);
  process.stdout.write(
    JSON.stringify({
      maxRssKb: process.resourceUsage().maxRSS,
      found: text.includes('small.txt'),
      skipped: /Skipped/.test(text),
    }),
  );
  process.exit(0);
}

const ws = mkdtempSync(path.join(os.tmpdir(), 'sparse-grep-'));
try {
  writeFileSync(path.join(ws, 'small.txt'), 'a needle here\n');
  writeFileSync(path.join(ws, 'huge.txt'), '');
  truncateSync(path.join(ws, 'huge.txt'), 1024 * 1024 * 1024);
  const run = spawnSync(
    process.execPath,
    ['--max-old-space-size=4096', fileURLToPath(import.meta.url), dist, '--child', ws],
    {
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  if (run.status !== 0) {
    process.stdout.write(`child failed (${run.status}): ${run.stderr.slice(0, 2000)}\n`);
    process.exit(1);
  }
  const figures = JSON.parse(run.stdout);
  process.stdout.write(
    `grep_search over a 1 GiB sparse file: peak RSS ${(figures.maxRssKb / 1024).toFixed(0)} MB, ` +
      `small file found: ${figures.found}, huge file reported as skipped: ${figures.skipped}\n`,
  );
} finally {
  rmSync(ws, { recursive: true, force: true });
}
