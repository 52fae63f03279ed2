import type { SessionContext } from '../core/session-context.js';
import { ConfigurationError } from '../errors.js';
import { DEFAULT_HOOK_TIMEOUT_MS } from './command-hook.js';
import {
  HOOK_EVENT_NAMES,
  isHookEventName,
  type HookEventName,
  type HookInput,
  type HookOutput,
} from './hook-types.js';
import { runHookAsCommand, type RunAsCommandOptions } from './run-as-command.js';

/** Options of {@link hook}. */
export interface HookOptions<E extends HookEventName> {
  /** The event it runs on (one of gemini-cli's 11). */
  event: E;
  /** A unique name: how warnings, `hooksConfig.disabled` and de-duplication refer to it. */
  name: string;
  /**
   * Which calls it runs for (gemini-cli's semantics): for BeforeTool/AfterTool a regular expression searched in
   * the tool name (`write_file|replace`, `^mcp_github_`); for SessionStart/SessionEnd/PreCompress the exact
   * source/reason/trigger; ignored by the other events. `""`, `*` or none: every call.
   */
  matcher?: string;
  /** Run this event's hooks one after another, each seeing the previous one's changes (default: in parallel). */
  sequential?: boolean;
  /** Milliseconds before the handler's `ctx.signal` aborts and the hook is skipped with a warning (default 60 000). */
  timeout?: number;
  /** What it does (for listings). */
  description?: string;
}

/** The handler: gets the event's input and a {@link SessionContext} whose `signal` is the hook's own. */
export type HookHandler<E extends HookEventName> = (
  input: HookInput<E>,
  ctx: SessionContext,
) => HookOutput<E> | void | null | undefined | Promise<HookOutput<E> | void | null | undefined>;

/** A hook made with {@link hook}: pass it in the agent's `hooks` option, or run it as a command hook. */
export interface SdkHook<E extends HookEventName = HookEventName> {
  readonly event: E;
  readonly name: string;
  readonly matcher: string | undefined;
  readonly sequential: boolean;
  /** Milliseconds. */
  readonly timeout: number;
  readonly description: string | undefined;
  readonly handler: HookHandler<E>;
  /**
   * Runs this hook as a gemini-cli command hook in the current process: reads the event input as JSON from stdin,
   * calls the handler, writes its answer as JSON to stdout and sets the exit code (0; 1 with the error on stderr
   * when the handler throws, which gemini-cli treats as a warning). Input for another event gets no answer. Point
   * a `settings.json` command at a script that ends with `await myHook.runAsCommand()`.
   *
   * @returns the exit code (also set as `process.exitCode` when writing to the real stdout).
   */
  runAsCommand(options?: RunAsCommandOptions): Promise<number>;
}

/** A hook of any event (what the agent's `hooks` option takes). */
export type AnySdkHook = { [E in HookEventName]: SdkHook<E> }[HookEventName];

/** Marks objects made by {@link hook} (the agent accepts only those in `hooks`). */
const HOOK_BRAND: unique symbol = Symbol.for('gemini-agent-sdk.hook');

/** True for a hook made with {@link hook}. */
export function isSdkHook(value: unknown): value is AnySdkHook {
  return typeof value === 'object' && value !== null && HOOK_BRAND in value;
}

/**
 * Defines an in-process hook: typed by event (`input.tool_input` for BeforeTool, `llm_request` for BeforeModel…),
 * answering with gemini-cli's hook output (`{ decision: 'deny', reason }`, `hookSpecificOutput`…) or nothing.
 *
 * @example
 * ```ts
 * const guard = hook({ event: 'BeforeTool', name: 'no-secrets', matcher: 'write_file|replace' },
 *   async (input) => input.tool_input.file_path?.endsWith('.env')
 *     ? { decision: 'deny', reason: 'secrets are read-only' } : undefined);
 * new GeminiCliAgent({ hooks: [guard] });
 * ```
 *
 * @throws ConfigurationError for an unknown event, a missing name or handler, or a bad matcher/timeout.
 */
export function hook<E extends HookEventName>(
  options: HookOptions<E>,
  handler: HookHandler<E>,
): SdkHook<E> {
  const opts = (options ?? {}) as Partial<HookOptions<E>>;
  if (!isHookEventName(opts.event)) {
    throw new ConfigurationError(
      `hook(): event must be one of ${HOOK_EVENT_NAMES.join(', ')} (got ${JSON.stringify(opts.event) ?? 'nothing'}).`,
    );
  }
  const event = opts.event;
  if (typeof opts.name !== 'string' || opts.name.trim() === '') {
    throw new ConfigurationError(`hook(): a ${event} hook needs a non-empty name.`);
  }
  const name = opts.name;
  if (typeof handler !== 'function') {
    throw new ConfigurationError(
      `hook(): "${name}" needs a handler function: hook({ event, name }, (input, ctx) => output).`,
    );
  }
  if (opts.matcher !== undefined && typeof opts.matcher !== 'string') {
    throw new ConfigurationError(`hook(): "${name}": matcher must be a string.`);
  }
  const timeout = opts.timeout ?? DEFAULT_HOOK_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0) {
    throw new ConfigurationError(
      `hook(): "${name}": timeout must be a positive number of milliseconds (got ${String(opts.timeout)}).`,
    );
  }
  const made: SdkHook<E> = {
    event,
    name,
    matcher: opts.matcher,
    sequential: opts.sequential === true,
    timeout,
    description: opts.description,
    handler,
    runAsCommand: (runOptions) => runHookAsCommand(made as unknown as SdkHook, runOptions),
  };
  Object.defineProperty(made, HOOK_BRAND, { value: true });
  return Object.freeze(made);
}
