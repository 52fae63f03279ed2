#!/usr/bin/env node
/**
 * The `gemini-agent` bin: gemini-cli's headless mode (`gemini -p`) on gemini-agent-sdk. All the logic lives
 * in {@link runCli}; this file binds it to the real process (streams, signals, exit code).
 */
import type { CliIo } from './cli-io.js';
import { ExitCode } from './exit-codes.js';
import { runCli } from './run-cli.js';

const interruptHandlers = new Set<() => void>();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts += 1;
  // First Ctrl-C: let the running prompt abort and save its session. A second one, or one while nothing
  // can be aborted, exits at once.
  if (interrupts > 1 || interruptHandlers.size === 0) process.exit(ExitCode.Cancelled);
  for (const handler of interruptHandlers) handler();
});

let stdoutClosed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // A closed pipe (`gemini-agent -p … | head -1`) is not an error of ours: stop writing, keep saving.
  if (error.code === 'EPIPE') stdoutClosed = true;
  else throw error;
});

const io: CliIo = {
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdin: process.stdin,
  stdout: (text) => {
    if (!stdoutClosed) process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  ...(process.stdout.isTTY === true ? { terminalStdout: process.stdout } : {}),
  onInterrupt: (handler) => {
    interruptHandlers.add(handler);
    return () => {
      interruptHandlers.delete(handler);
      // What the Ctrl-C interrupted is over (an -i turn): the next Ctrl-C is a first one again.
      if (interruptHandlers.size === 0) interrupts = 0;
    };
  },
};

const code = await runCli(io);
await Promise.all([flush(process.stdout), flush(process.stderr)]);
process.exit(code);

function flush(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream === process.stdout && stdoutClosed) resolve();
    else stream.write('', () => resolve());
  });
}
