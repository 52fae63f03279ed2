import { realpathSync } from 'node:fs';
import type { CliIo } from './cli-io.js';
import {
  BudgetPausedError,
  CliUsageError,
  ContextWindowError,
  GeminiWordedError,
  TurnLimitError,
} from './cli-errors.js';
import type { CliOptions } from './cli-options.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';
import { createWriter } from './output/create-writer.js';
import { errorInfo, type OutputWriter, type RunOutcome } from './output/output-writer.js';
import { RunStatsCollector } from './output/run-stats.js';
import { Progress } from './progress.js';
import { hookEventLine } from './hook-lines.js';
import { retryLine } from './retry-line.js';
import { stripEscapeSequences } from './terminal-text.js';
import {
  AbortError,
  DEFAULT_MODEL,
  FileSessionStore,
  SessionNotFoundError,
  type BudgetExceededInfo,
  type GeminiCliAgent,
  type GeminiCliSession,
  type ServerGeminiStreamEvent,
} from './sdk.js';
import { findResumeSession, listProjectSessions, NO_SESSIONS } from './session-list.js';

/**
 * Runs one prompt headlessly: opens (or resumes) the session, streams the events into the chosen output
 * format, and returns the exit code. Ctrl-C aborts the stream; the session is closed (saved) before this
 * returns, whatever happened.
 *
 * Without a prompt (`-r` alone), the resumed session's turn paused on the budget continues.
 *
 * Errors before the session exists (unknown session, duplicate `--session-id`, no prompt and nothing paused) are
 * thrown to the caller; errors after it exists are reported through the output format and turned into an exit code
 * here.
 */
export async function runPrompt(
  agent: GeminiCliAgent,
  options: CliOptions,
  prompt: string | undefined,
  io: CliIo,
): Promise<ExitCode> {
  const session = await openSession(agent, options, io);
  if (prompt === undefined) await requirePausedTurn(session);
  const turn = await runTurn(session, options, prompt, io);
  try {
    await session.close();
  } catch (closeError) {
    const message = closeError instanceof Error ? closeError.message : String(closeError);
    io.stderr(`Warning: the session could not be closed cleanly: ${message}\n`);
  }
  turn.writer.finish(turn.outcome);
  return turn.exitCode;
}

/** One turn streamed into an output writer: how it ended, and the writer, whose `finish` is still to call. */
export interface TurnResult {
  exitCode: ExitCode;
  outcome: RunOutcome;
  writer: OutputWriter;
  /** True when Ctrl-C cancelled the turn. */
  cancelled: boolean;
  /**
   * True when a Ctrl-C came after the turn had already done its work (while its last record was saved, or an
   * AfterAgent hook ran): nothing was cancelled, and the interrupt is the caller's to act on.
   */
  lateInterrupt: boolean;
}

/**
 * Sends one prompt (or, when undefined, continues the turn paused on the budget) on an open session and streams
 * its events into the output format of `options`, with gemini's stderr lines (retries, warnings, failed tools,
 * hooks) and the progress line on a terminal. Ctrl-C aborts the turn. Never throws: failures are in the result.
 */
export async function runTurn(
  session: GeminiCliSession,
  options: CliOptions,
  prompt: string | undefined,
  io: CliIo,
): Promise<TurnResult> {
  const model = options.model ?? DEFAULT_MODEL;
  let progress: Progress | undefined;
  const stdout = (text: string): void => {
    progress?.clear();
    io.stdout(text);
  };
  const stderr = (text: string): void => {
    progress?.clear();
    io.stderr(text);
  };
  const { writer, stdoutMidLine } = createWriter(options.outputFormat, stdout, stderr);
  if (io.stderrIsTTY) {
    progress = new Progress({
      write: io.terminalStderr ?? io.stderr,
      canDraw: () => !(io.stdoutIsTTY && stdoutMidLine()),
    });
  }
  const stats = new RunStatsCollector(model);
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort());

  writer.start({ sessionId: session.id, model, prompt });
  progress?.begin();
  let outcome: RunOutcome;
  let exitCode: ExitCode;
  try {
    let turnLimitReached = false;
    let overflow: { estimatedRequestTokenCount: number; remainingTokenCount: number } | undefined;
    // Whether the model call being streamed has printed text (a mid-stream retry replaces it).
    let attemptPrinted = false;
    let paused: BudgetExceededInfo | undefined;
    // Whether the abort took effect: the loop says so with `user_cancelled` (or the stream throws).
    let cancelledByStream = false;
    const events: AsyncIterable<ServerGeminiStreamEvent> =
      prompt === undefined
        ? session.resumeTurn(controller.signal)
        : session.sendStream(prompt, controller.signal);
    for await (const received of events) {
      // As gemini: escape sequences are stripped from model text, in every format, unless --raw-output.
      const event =
        received.type === 'content' && !options.rawOutput
          ? { ...received, value: stripEscapeSequences(received.value) }
          : received;
      progress?.observe(event);
      stats.observe(event);
      if (event.type === 'retry') stderr(retryLine(event.value, attemptPrinted));
      if (event.type === 'warning') stderr(`Warning: ${event.value.message}\n`);
      if (event.type === 'tool_call_response' && event.value.error !== undefined) {
        // gemini-cli logs every failed call on stderr, whatever the output format.
        const { name, resultDisplay, error } = event.value;
        stderr(`Error executing tool ${name}: ${resultDisplay || error.message}\n`);
      }
      const hookLine = hookEventLine(event);
      if (hookLine !== undefined) stderr(hookLine);
      if (event.type === 'content') attemptPrinted = true;
      if (event.type === 'retry' || event.type === 'tool_call_response') attemptPrinted = false;
      writer.event(event);
      if (event.type === 'max_session_turns') turnLimitReached = true;
      if (event.type === 'context_window_will_overflow') overflow = event.value;
      if (event.type === 'budget_exceeded') paused = event.value;
      if (event.type === 'user_cancelled') cancelledByStream = true;
    }
    if (cancelledByStream) throw cancelled(session.id);
    if (turnLimitReached) throw new TurnLimitError(options.maxTurns, session.id);
    if (overflow !== undefined) {
      const { estimatedRequestTokenCount: estimated, remainingTokenCount: remaining } = overflow;
      throw new ContextWindowError(estimated, remaining, session.id);
    }
    if (paused !== undefined) throw new BudgetPausedError(paused, session.id);
    exitCode = ExitCode.Success;
    outcome = { status: 'success', stats: stats.snapshot() };
  } catch (thrown) {
    const error = controller.signal.aborted ? cancelled(session.id, thrown) : thrown;
    exitCode = exitCodeFor(error);
    outcome = { status: 'error', error: errorInfo(error, exitCode), stats: stats.snapshot() };
  } finally {
    stopListening();
    progress?.end();
  }
  const interrupted = controller.signal.aborted;
  const wasCancelled = interrupted && exitCode === ExitCode.Cancelled;
  return {
    exitCode,
    outcome,
    writer,
    cancelled: wasCancelled,
    lateInterrupt: interrupted && !wasCancelled,
  };
}

/**
 * Opens the session the command line asks for: resumed (`-r`), new with an id, or new — with gemini-cli's
 * wording when that fails (`Error resuming session: …`, `Error starting session: …`), and its warning when
 * `-r latest` finds no session (a new one starts).
 */
export async function openSession(
  agent: GeminiCliAgent,
  options: Pick<CliOptions, 'resume' | 'sessionId'>,
  io: Pick<CliIo, 'cwd' | 'env' | 'stderr'>,
): Promise<GeminiCliSession> {
  if (options.resume !== undefined) {
    const chatsDir = (): Promise<string> =>
      new FileSessionStore({ projectRoot: realCwd(io.cwd), env: { ...(io.env ?? {}) } }).chatsDir();
    const found = await findResumeSession(
      await listProjectSessions(agent),
      options.resume,
      chatsDir,
    );
    if (found === undefined) {
      io.stderr(`${NO_SESSIONS}\n`);
      return agent.session();
    }
    try {
      return await agent.resumeSession(found.sessionId);
    } catch (error) {
      if (!(error instanceof SessionNotFoundError)) throw error;
      throw new GeminiWordedError(`Error resuming session: ${error.message}`);
    }
  }
  if (options.sessionId !== undefined) {
    const sessions = await listProjectSessions(agent);
    if (sessions.some((s) => s.sessionId === options.sessionId)) {
      throw new GeminiWordedError(
        `Error starting session: Session ID "${options.sessionId}" already exists. Use --resume to resume it, or provide a different ID.`,
      );
    }
    return agent.session({ sessionId: options.sessionId });
  }
  return agent.session();
}

/** `-r` without a prompt: only a session whose turn waits on its budget can continue without one. */
async function requirePausedTurn(session: GeminiCliSession): Promise<void> {
  try {
    await session.initialize();
  } catch (error) {
    await session.close();
    throw error;
  }
  if (session.budget?.paused !== undefined) return;
  await session.close();
  throw new CliUsageError(
    `No prompt: pass one with -p "your prompt" (session ${session.id} has no turn paused on its budget to ` +
      'continue). Run `gemini-agent --help` for usage.',
  );
}

/** The working folder as the agent stores sessions under it (links resolved). */
function realCwd(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

function cancelled(sessionId: string, cause?: unknown): AbortError {
  return new AbortError(
    `Cancelled (Ctrl-C). The session was saved; continue it with: gemini-agent -r ${sessionId}`,
    cause === undefined ? {} : { cause },
  );
}
