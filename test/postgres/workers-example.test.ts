import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers/built-cli.js';
import { usePostgres } from '../helpers/postgres.js';

const pg = usePostgres();

describe('examples/workers/main.ts', () => {
  it('runs sessions on two workers, approves and refuses, and stops them with SIGTERM', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'examples', 'workers', 'main.ts'), '2', '3'],
      {
        cwd: ROOT,
        timeout: 90_000,
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: process.env['GEMINI_CLI_HOME'] ?? '/tmp',
          GEMINI_CLI_HOME: process.env['GEMINI_CLI_HOME'] ?? '/tmp',
          TSX_TSCONFIG_PATH: join(ROOT, 'examples', 'tsconfig.json'),
          PG_URL: pg.url,
          PG_SCHEMA: 'example_demo',
          TOOL_DELAY_MS: '20',
        },
      },
    );
    expect(stdout).toContain('[w1] ready');
    expect(stdout).toContain('[w2] stopped');
    for (let s = 0; s < 3; s++) {
      expect(stdout).toContain(
        `demo-${s}: 12 messages; last: Task 2: secret-${s} was not changed (not approved).`,
      );
    }
  }, 120_000);
});
