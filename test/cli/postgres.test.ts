import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION } from '../../src/postgres/index.js';
import { usePostgres } from '../helpers/postgres.js';
import { ensureBuilt } from './helpers/built-cli.js';
import { cleanEnv, runCli, tempProject, type TempProject } from './helpers/run-cli.js';

const pg = usePostgres();
let project: TempProject;
beforeAll(async () => {
  await ensureBuilt();
});
beforeEach(async () => {
  project = await tempProject();
});
afterEach(async () => {
  await project.cleanup();
});

describe('gemini-agent postgres', () => {
  it('migrate creates the schema once; status reports its version and counts', async () => {
    const env = cleanEnv(project, { PG_URL: pg.url });
    const schema = ['--schema', 'cli_schema'];
    const before = await runCli(['postgres', 'status', ...schema], { cwd: project.cwd, env });
    expect(before.stdout).toContain(
      `version 0 (this SDK: ${LATEST_SCHEMA_VERSION}, migrations pending`,
    );
    const first = await runCli(['postgres', 'migrate', ...schema], { cwd: project.cwd, env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(
        `^Schema cli_schema: migrated from version 0 to ${LATEST_SCHEMA_VERSION} \\(1 sessions`,
      ),
    );
    const again = await runCli(['postgres', 'migrate', '--url', pg.url, ...schema], {
      cwd: project.cwd,
      env: cleanEnv(project),
    });
    expect(again.stdout).toBe(
      `Schema cli_schema is up to date (version ${LATEST_SCHEMA_VERSION}).\n`,
    );
    const status = await runCli(['postgres', 'status', ...schema], { cwd: project.cwd, env });
    expect(status.stdout).toContain('up to date');
    expect(status.stdout).toContain('Sessions: 0. Live leases: 0.');
  });

  it('says what to do without a database, with an unknown command, or with a bad schema name', async () => {
    const run = (args: string[], extra: Record<string, string> = {}) =>
      runCli(['postgres', ...args], { cwd: project.cwd, env: cleanEnv(project, extra) });
    const noUrl = await run(['migrate']);
    expect(noUrl.code).toBe(42);
    expect(noUrl.stderr).toContain('No database: pass --url');
    const unknown = await run(['drop'], { PG_URL: pg.url });
    expect(unknown.code).toBe(42);
    expect(unknown.stderr).toContain('Unknown postgres command "drop"');
    const badSchema = await run(['migrate', '--schema', 'Bad;Name'], { PG_URL: pg.url });
    expect(badSchema.code).toBe(52);
    expect(badSchema.stderr).toContain('Invalid PostgreSQL schema name');
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('gemini-agent postgres <command>');
  });
});
