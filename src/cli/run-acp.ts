import type { CliIo } from './cli-io.js';
import type { CliOptions } from './cli-options.js';
import { ExitCode } from './exit-codes.js';
import { GeminiCliAcpServer, createStderrLogger, type GeminiCliAgent } from './sdk.js';

/**
 * `gemini-agent --acp`: serves the Agent Client Protocol on this process's stdin/stdout until the editor
 * disconnects. Only protocol messages go to stdout; warnings and `--debug` lines go to stderr. Ctrl-C or SIGTERM
 * cancel the running turns, release the sessions and exit.
 */
export async function runAcp(
  agent: GeminiCliAgent,
  options: CliOptions,
  io: CliIo,
): Promise<ExitCode> {
  if (options.acpDeprecatedFlag) {
    io.stderr('Warning: --experimental-acp is deprecated; use --acp instead.\n');
  }
  const server = new GeminiCliAcpServer(agent, {
    terminal: options.acpTerminal ? 'client' : 'local',
    ...(options.debug ? { logger: createStderrLogger('[gemini-agent acp]') } : {}),
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void server.close();
  };
  const unsubscribe = io.onInterrupt(stop);
  process.once('SIGTERM', stop);
  try {
    await server.start();
  } finally {
    unsubscribe();
    process.off('SIGTERM', stop);
  }
  return stopping ? ExitCode.Cancelled : ExitCode.Success;
}
