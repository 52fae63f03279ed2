import { runCli } from '../../../src/cli/run-cli.js';

/**
 * Runs the whole CLI in this process (no build, no child): a terminal on stdin, no environment of its own (the
 * agent reads `process.env`, whose GEMINI_CLI_HOME the test setup isolates), output collected.
 */
export async function inProcessCli(
  argv: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv,
    env: {},
    cwd,
    stdin: { isTTY: true } as never,
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    onInterrupt: () => () => undefined,
  });
  return { code, stdout, stderr };
}
