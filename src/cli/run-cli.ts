import { CliUsageError, GeminiWordedError, SandboxUnsupportedError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import type { CliOptions, OutputFormat } from './cli-options.js';
import { agentOptionsFrom } from './agent-options.js';
import { startCliTelemetry } from './cli-telemetry.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';
import { HELP_TEXT } from './help-text.js';
import { errorInfo } from './output/output-writer.js';
import { RunStatsCollector } from './output/run-stats.js';
import { StreamJsonWriter } from './output/stream-json-writer.js';
import { parseCliArgs, requestedOutputFormat } from './parse-args.js';
import { combinePrompt, readPipedStdin } from './read-stdin.js';
import { runPrompt } from './run-prompt.js';
import type { ReplQuestions } from './repl-questions.js';
import { GeminiCliAgent } from './sdk.js';
import { terminalSafeIo } from './terminal-text.js';
import { packageVersion } from './version.js';

/** gemini's warning for `--raw-output` without `--accept-raw-output-risk` (text output only). */
const RAW_OUTPUT_WARNING =
  '[WARNING] --raw-output is enabled. Model output is not sanitized and may contain harmful ANSI sequences ' +
  '(e.g. for phishing or command injection). Use --accept-raw-output-risk to suppress this warning.\n';

/**
 * The whole `gemini-agent` command: parse, then help / version / list / delete / run a prompt, or the
 * `postgres`, `mcp`, `extensions`, `hooks`, `skills`, `agents`, `login` / `logout`, `view` subcommands. Returns the
 * exit code; never throws. Everything it touches comes through `io`. Each subcommand, `-i`, `--acp`,
 * `--show-config` and the session listing load their module on first use: a `-p` run does not evaluate them (P1).
 */
export async function runCli(rawIo: CliIo): Promise<ExitCode> {
  // Model text, tool output and session titles must never drive the user's terminal.
  const io = terminalSafeIo(rawIo);
  // Known before parsing, so that a bad flag is reported in the format asked for.
  let format: OutputFormat = requestedOutputFormat(io.argv);
  try {
    if (io.argv[0] === 'postgres')
      return await (await import('./postgres-command.js')).postgresCommand(io, io.argv.slice(1));
    if (io.argv[0] === 'mcp')
      return await (await import('./mcp-command.js')).mcpCommand(io, io.argv.slice(1));
    if (io.argv[0] === 'extensions' || io.argv[0] === 'extension')
      return await (
        await import('./extensions-command.js')
      ).extensionsCommand(io, io.argv.slice(1));
    if (io.argv[0] === 'hooks' || io.argv[0] === 'hook')
      return await (await import('./hooks-command.js')).hooksCommand(io, io.argv.slice(1));
    if (io.argv[0] === 'skills' || io.argv[0] === 'skill')
      return await (await import('./skills-command.js')).skillsCommand(io, io.argv.slice(1));
    if (io.argv[0] === 'agents' || io.argv[0] === 'agent')
      return await (await import('./agents-command.js')).agentsCommand(io, io.argv.slice(1));
    if (io.argv[0] === 'login' || io.argv[0] === 'logout')
      return await (await import('./login-command.js')).loginCommand(io, io.argv);
    if (io.argv[0] === 'view')
      return await (await import('./view-command.js')).viewCommand(io, io.argv.slice(1));
    const options = parseCliArgs(io.argv);
    format = options.outputFormat;
    if (options.help) {
      io.stdout(HELP_TEXT);
      return ExitCode.Success;
    }
    if (options.version) {
      io.stdout(`${packageVersion()}\n`);
      return ExitCode.Success;
    }
    if (options.sandbox) throw new SandboxUnsupportedError();
    const agentOptions = agentOptionsFrom(options, io.cwd, io.env ?? {});
    // -i answers ask_user from its input lines.
    const questions =
      options.promptInteractive !== undefined && !options.acp
        ? new (await import('./repl-questions.js')).ReplQuestions((text) => io.stdout(text))
        : undefined;
    if (questions) agentOptions.onAskUser = questions.handler;
    if (options.showConfig) {
      await (await import('./show-config.js')).showConfigCommand(agentOptions, options, io);
      return ExitCode.Success;
    }
    const listing =
      options.listSessions || options.listExtensions || options.deleteSession !== undefined;
    const telemetry = listing
      ? undefined
      : await startCliTelemetry(agentOptions, io, options.sessionId);
    try {
      return await runAgent(new GeminiCliAgent(agentOptions), options, io, rawIo, questions);
    } finally {
      await telemetry?.shutdown().catch((error: unknown) => {
        io.stderr(`Warning: telemetry export failed: ${String(error)}\n`);
      });
    }
  } catch (error) {
    const code = exitCodeFor(error);
    reportFatal(io, format, error, code);
    return code;
  }
}

/** Runs what the flags ask of the agent: ACP, list or delete sessions, or one prompt. */
async function runAgent(
  agent: GeminiCliAgent,
  options: CliOptions,
  io: CliIo,
  rawIo: CliIo,
  questions?: ReplQuestions,
): Promise<ExitCode> {
  if (options.acp) return await (await import('./run-acp.js')).runAcp(agent, options, io);
  if (options.listExtensions) {
    listExtensions(agent, io);
    return ExitCode.Success;
  }
  if (options.listSessions) {
    await (await import('./sessions-command.js')).listSessionsCommand(agent, io);
    return ExitCode.Success;
  }
  if (options.deleteSession !== undefined) {
    await (
      await import('./sessions-command.js')
    ).deleteSessionCommand(agent, io, options.deleteSession);
    return ExitCode.Success;
  }
  if (options.promptInteractive !== undefined)
    return await (await import('./repl.js')).runRepl(agent, options, io, questions);
  const piped = await readPipedStdin(io.stdin).catch((error: unknown) => {
    throw new CliUsageError(
      `Could not read piped input: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const prompt = combinePrompt(piped, options.prompt ?? options.positionalPrompt);
  // -r without a prompt continues a turn paused on the budget (runPrompt checks that one is).
  if (prompt === undefined && options.resume === undefined) {
    throw new CliUsageError(
      'No prompt: pass one with -p "your prompt" (or pipe it on stdin). Run `gemini-agent --help` for usage.',
    );
  }
  // --raw-output: model text reaches stdout as sent, even on a terminal.
  const promptIo = options.rawOutput ? { ...io, stdout: rawIo.stdout } : io;
  if (options.rawOutput && !options.acceptRawOutputRisk && options.outputFormat === 'text') {
    io.stderr(RAW_OUTPUT_WARNING);
  }
  return await runPrompt(agent, options, prompt, promptIo);
}

/**
 * An error before any output started (a bad flag, a replay file that cannot be read, an unknown session): plain
 * text on stderr; in the JSON formats also a JSON error on stdout, so a consumer parsing stdout always gets an
 * answer — `{"error": {type, message, code}}` for `json`, a `result` line with `status: "error"` (gemini-cli's
 * stream-json error shape) for `stream-json`.
 */
/** gemini's `-l`: the extensions the agent loaded (active or not), one per line. */
function listExtensions(agent: GeminiCliAgent, io: CliIo): void {
  const { extensions, warnings } = agent.extensions();
  for (const warning of warnings) io.stderr(`Warning: ${warning}\n`);
  io.stdout(`Installed extensions:\n${extensions.map((e) => `- ${e.name}\n`).join('')}`);
}

function reportFatal(io: CliIo, format: OutputFormat, error: unknown, code: ExitCode): void {
  const info = errorInfo(error, code);
  io.stderr(error instanceof GeminiWordedError ? `${info.message}\n` : `Error: ${info.message}\n`);
  if (format === 'json') io.stdout(`${JSON.stringify({ error: info }, null, 2)}\n`);
  if (format === 'stream-json') {
    const stats = new RunStatsCollector('').snapshot();
    new StreamJsonWriter(io.stdout).finish({ status: 'error', error: info, stats });
  }
}
