import { readFileSync, statSync } from 'node:fs';
import type { Content } from '@google/genai';
import type { AgentHandle, SessionContext, SessionHandle } from '../core/session-context.js';
import { emptyUsage } from '../core/usage.js';
import { ConfigurationError } from '../errors.js';
import { parseSessionText } from '../sessions/conversation.js';
import { recordsToHistory } from '../sessions/history-from-records.js';
import { createWorkspace } from '../workspace/workspace.js';
import { checkHookOutput } from './hook-output.js';
import type { HookEventName, HookInput } from './hook-types.js';
import { runRuntimeHook } from './runtime-hook.js';

/** Where {@link runHookAsCommand} reads and writes (default the process's stdin, stdout and stderr). */
export interface RunAsCommandOptions {
  /** The input JSON, or a stream to read it from. */
  stdin?: string | NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** The parts of a hook that running it as a command needs. */
export interface CommandHandlerHook {
  readonly event: HookEventName;
  readonly name: string;
  readonly timeout: number;
  readonly handler: (input: never, ctx: SessionContext) => unknown;
}

/** The most stdin a command hook reads (gemini-cli sends one event's JSON). */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > MAX_INPUT_BYTES)
      throw new Error(`the input is larger than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function unavailable(what: string): never {
  throw new ConfigurationError(
    `ctx.${what} is not available in a hook run as a command (runAsCommand): there is no agent in this process.`,
  );
}

const noAgent: AgentHandle = {
  session: () => unavailable('agent'),
  resumeSession: () => unavailable('agent'),
};

function transcriptOf(path: string): Content[] {
  if (path === '') return [];
  try {
    if (statSync(path).size > MAX_INPUT_BYTES) return [];
    const parsed = parseSessionText(readFileSync(path, 'utf8'));
    return parsed.conversation ? recordsToHistory(parsed.conversation.messages) : [];
  } catch {
    return [];
  }
}

/** A context for a hook running outside any agent: the input's session and folder, `ctx.fs` / `ctx.shell` there. */
function standaloneContext(input: HookInput, signal: AbortSignal): SessionContext {
  let cwd = input.cwd;
  try {
    if (!statSync(cwd).isDirectory()) cwd = process.cwd();
  } catch {
    cwd = process.cwd();
  }
  const workspace = createWorkspace({ cwd });
  const session: SessionHandle = {
    id: input.session_id,
    streaming: false,
    usage: emptyUsage(),
    initialize: () => unavailable('session'),
    sendStream: () => unavailable('session'),
    getHistory: () => transcriptOf(input.transcript_path),
  };
  let transcript: readonly Content[] | undefined;
  return Object.freeze({
    sessionId: input.session_id,
    get transcript(): readonly Content[] {
      transcript ??= Object.freeze(transcriptOf(input.transcript_path));
      return transcript;
    },
    cwd: workspace.cwd,
    timestamp: new Date().toISOString(),
    fs: workspace.fs,
    shell: workspace.shell,
    agent: noAgent,
    session,
    signal,
  });
}

/**
 * Runs a hook the way gemini-cli runs a command hook: input JSON on stdin, the answer as JSON on stdout, exit 0.
 * A handler that throws or times out exits 1 with the error on stderr (gemini-cli: a warning, the call goes on);
 * input for another event, or no answer, prints nothing.
 */
export async function runHookAsCommand(
  hook: CommandHandlerHook,
  options: RunAsCommandOptions = {},
): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const finish = (code: number): number => {
    if (options.stdout === undefined) process.exitCode = code;
    return code;
  };
  let input: HookInput;
  try {
    const text =
      typeof options.stdin === 'string'
        ? options.stdin
        : await readAll(options.stdin ?? process.stdin);
    input = JSON.parse(text) as HookInput;
    if (typeof input !== 'object' || input === null || Array.isArray(input))
      throw new Error('expected a JSON object');
  } catch (error) {
    stderr.write(`Hook ${hook.name}: cannot read the hook input from stdin: ${String(error)}\n`);
    return finish(1);
  }
  if (input.hook_event_name !== hook.event) return finish(0);
  const controller = new AbortController();
  const ctx = standaloneContext(input, controller.signal);
  const action = hook.handler as (input: HookInput, ctx: SessionContext) => unknown;
  const result = await runRuntimeHook(action, input, ctx, hook.timeout);
  if (!result.success) {
    stderr.write(`Hook ${hook.name} failed: ${result.error ?? 'unknown error'}\n`);
    return finish(1);
  }
  if (result.output === undefined) return finish(0);
  const checked = checkHookOutput(result.output);
  for (const problem of checked.problems) stderr.write(`Hook ${hook.name}: ${problem}\n`);
  if (checked.output !== undefined) stdout.write(`${JSON.stringify(checked.output)}\n`);
  return finish(0);
}
