import { createInterface } from 'node:readline';
import { CliFlagError } from './cli-errors.js';
import type { CliIo } from './cli-io.js';
import type { CliOptions } from './cli-options.js';
import { ExitCode } from './exit-codes.js';
import { openSession, runTurn } from './run-prompt.js';
import { DEFAULT_MODEL, type GeminiCliAgent, type GeminiCliSession } from './sdk.js';
import type { ReplQuestions } from './repl-questions.js';

/** The `/help` text of the interactive mode. */
export const REPL_HELP = `Commands:
  /help                      This list.
  /stats                     The session's id, model, turns, requests, tokens and tool calls so far.
  /clear                     Start a new session (the current one stays saved).
  /skills [list]             The skills, enabled or not.
  /skills enable|disable <n> Turn a skill on or off for this run.
  /quit, /exit               Leave (also Ctrl-D, or Ctrl-C at an empty prompt).
Ctrl-C while the model works cancels the turn. Every turn is saved; continue later with gemini-agent -r <id>.
`;

/** Totals of the turns of one REPL session, for `/stats`. */
interface Totals {
  turns: number;
  requests: number;
  input: number;
  output: number;
  tools: number;
}

const noTotals = (): Totals => ({ turns: 0, requests: 0, input: 0, output: 0, tools: 0 });

/**
 * `-i/--prompt-interactive`: runs the `-i` prompt (if any), then reads prompts line by line from stdin — a
 * terminal (readline line editing and history) or a pipe — each a turn of one session saved like every CLI run.
 * Lines starting with `/` are commands ({@link REPL_HELP}). Ends on EOF, `/quit`, or Ctrl-C at an empty prompt;
 * Ctrl-C during a turn cancels that turn only. Returns 0 when it ends that way.
 */
export async function runRepl(
  agent: GeminiCliAgent,
  options: CliOptions,
  io: CliIo,
  questions?: ReplQuestions,
): Promise<ExitCode> {
  if (options.outputFormat !== 'text') {
    throw new CliFlagError(
      '-i/--prompt-interactive prints text: drop -o/--output-format (use -p for json or stream-json).',
    );
  }
  let session = await openSession(agent, options, io);
  const terminal = io.stdin.isTTY === true && io.terminalStdout !== undefined;
  const rl = createInterface({
    input: io.stdin as unknown as NodeJS.ReadableStream,
    ...(terminal ? { output: io.terminalStdout, terminal: true, historySize: 1000 } : {}),
    terminal,
    prompt: '> ',
  });
  // Iterated from now on, so lines that arrive while the first prompt runs are kept (a pipe may end by then).
  const lines = rl[Symbol.asyncIterator]();
  // One reader of the lines at a time: the loop between turns, ask_user's questions during one. A read abandoned by
  // an abort (Ctrl-C at a question) stays pending, and the next read gets its line.
  let pending: Promise<IteratorResult<string>> | undefined;
  const take = async (signal?: AbortSignal): Promise<string | undefined> => {
    const next = (pending ??= lines.next());
    const result = signal === undefined ? await next : await abortable(next, signal);
    pending = undefined;
    return result.done === true ? undefined : result.value;
  };
  questions?.attach((signal) => {
    if (terminal) rl.setPrompt('? ');
    return take(signal).finally(() => rl.setPrompt('> '));
  });
  let closed = false;
  rl.on('close', () => {
    closed = true;
  });
  // Ctrl-C: cancels the running turn, else ends the REPL (on a terminal, first clears a half-typed line). Lines
  // already read stay unrun once it ended the REPL.
  let ended = false;
  let cancelTurn: (() => void) | undefined;
  const interrupt = (): void => {
    if (cancelTurn !== undefined) return cancelTurn();
    if (terminal && rl.line !== '') {
      rl.write(null, { ctrl: true, name: 'u' });
      return;
    }
    ended = true;
    rl.close();
  };
  rl.on('SIGINT', interrupt);
  const turnIo: CliIo = {
    ...io,
    onInterrupt: (handler) => {
      cancelTurn = handler;
      const off = io.onInterrupt(handler);
      return () => {
        cancelTurn = undefined;
        off();
      };
    },
  };
  let idleOff: (() => void) | undefined;
  const idle = (): void => {
    idleOff = io.onInterrupt(interrupt);
    if (terminal && !closed) rl.prompt();
  };
  const busy = (): void => {
    idleOff?.();
    idleOff = undefined;
  };
  const totals = noTotals();
  /** Runs one turn; true when a Ctrl-C came after its work was done (then it is the idle prompt's). */
  const turn = async (prompt: string): Promise<boolean> => {
    busy();
    const result = await runTurn(session, options, prompt, turnIo);
    if (result.cancelled) {
      result.writer.finish({ status: 'success', stats: result.outcome.stats });
      io.stderr('Cancelled.\n');
    } else {
      result.writer.finish(result.outcome);
    }
    const stats = result.outcome.stats.session;
    totals.turns += 1;
    for (const model of Object.values(stats.models)) {
      totals.requests += model.api.totalRequests;
      totals.input += model.tokens.prompt;
      totals.output += model.tokens.candidates;
    }
    totals.tools += stats.tools.totalCalls;
    return result.lateInterrupt;
  };
  /** Back at the prompt; a Ctrl-C that came too late to cancel the turn acts there, as if pressed now. */
  const afterTurn = (lateInterrupt: boolean): void => {
    busy();
    idle();
    if (lateInterrupt) interrupt();
  };
  const commands = new ReplCommands(agent, options, io, {
    current: () => session,
    totals: () => totals,
    replace: async () => {
      await closeQuietly(session, io);
      session = await agent.session();
      Object.assign(totals, noTotals());
      return session;
    },
  });

  try {
    const initial = options.promptInteractive?.trim() ?? '';
    afterTurn(initial !== '' && (await turn(initial)));
    for (let line = ended ? undefined : await take(); line !== undefined; line = await take()) {
      const text = line.trim();
      let late = false;
      if (text !== '') {
        if (text.startsWith('/')) {
          if ((await commands.run(text)) === 'quit') break;
        } else {
          late = await turn(text);
        }
      }
      afterTurn(late);
      if (ended) break;
    }
  } finally {
    questions?.detach();
    busy();
    rl.close();
    await closeQuietly(session, io);
  }
  io.stderr(`Session ${session.id} saved; continue it with: gemini-agent -r ${session.id}\n`);
  return ExitCode.Success;
}

/** Settles like `promise`, or rejects when `signal` aborts (the promise is left to settle for its next reader). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function closeQuietly(session: GeminiCliSession, io: CliIo): Promise<void> {
  try {
    await session.close();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`Warning: the session could not be closed cleanly: ${message}\n`);
  }
}

/** What the commands need of the loop: its session, its totals, and a way to start a new session. */
interface ReplState {
  current(): GeminiCliSession;
  totals(): Totals;
  replace(): Promise<GeminiCliSession>;
}

/** The slash commands of the interactive mode. */
class ReplCommands {
  constructor(
    private readonly agent: GeminiCliAgent,
    private readonly options: CliOptions,
    private readonly io: CliIo,
    private readonly state: ReplState,
  ) {}

  /** Runs one `/command` line; `quit` ends the loop. */
  async run(line: string): Promise<'quit' | undefined> {
    const [command = '', ...args] = line.slice(1).split(/\s+/);
    switch (command.toLowerCase()) {
      case 'quit':
      case 'exit':
        return 'quit';
      case 'help':
      case '?':
        this.io.stdout(REPL_HELP);
        return undefined;
      case 'stats':
        this.stats();
        return undefined;
      case 'clear': {
        const session = await this.state.replace();
        this.io.stdout(`Started a new session: ${session.id}\n`);
        return undefined;
      }
      case 'skills':
        await this.skills(args);
        return undefined;
      default:
        this.io.stderr(`Unknown command: /${command}. Type /help for the commands.\n`);
        return undefined;
    }
  }

  private stats(): void {
    const t = this.state.totals();
    this.io.stdout(
      `Session ${this.state.current().id}\n` +
        `  Model:      ${this.options.model ?? DEFAULT_MODEL}\n` +
        `  Turns:      ${t.turns}\n` +
        `  Requests:   ${t.requests}\n` +
        `  Tokens:     ${t.input} input, ${t.output} output\n` +
        `  Tool calls: ${t.tools}\n`,
    );
  }

  private async skills(args: readonly string[]): Promise<void> {
    const manager = await this.agent.skills();
    const [sub = 'list', name] = args;
    if (sub === 'list') {
      const skills = manager.list();
      this.io.stdout(
        skills.length === 0
          ? 'No skills discovered.\n'
          : skills
              .map((s) => `${s.name} ${s.enabled ? '[Enabled]' : '[Disabled]'}  ${s.description}\n`)
              .join(''),
      );
      return;
    }
    if ((sub !== 'enable' && sub !== 'disable') || name === undefined) {
      this.io.stderr('Usage: /skills [list] | /skills enable <name> | /skills disable <name>\n');
      return;
    }
    try {
      if (sub === 'enable') manager.enable(name);
      else manager.disable(name);
      this.io.stdout(`Skill "${name}" ${sub}d for this run.\n`);
    } catch (error) {
      this.io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
}
