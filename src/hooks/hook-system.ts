import { dirname, join } from 'node:path';
import { isoTimestamp, type SessionContext } from '../core/session-context.js';
import type { ServerGeminiStreamEvent } from '../events.js';
import type { Logger } from '../logger.js';
import { geminiGlobalDir, slugifyProjectName } from '../sessions/session-paths.js';
import { executeHooks, type HookEventResult, type HookRunRecord } from './hook-executor.js';
import type { HookMatchContext, HookPlan, HookRegistry } from './hook-planner.js';
import type { AnyHookOutput, HookEventName, HookInput, HookInputFields } from './hook-types.js';

/** Where an event fires: the context in-process hooks get, the stream, and the session's files. */
export interface HookScope {
  /** In-process hooks get it (with their own signal); `ctx.signal` aborts every hook of the event. */
  ctx: SessionContext;
  emit(event: ServerGeminiStreamEvent): void;
  /** The session file (gemini-cli's `transcript_path`), `''` when the session is not stored in a file. */
  transcriptPath: string;
  /** Failure warnings already given during this model call (streamed events warn once per call). */
  reported?: Set<string> | undefined;
}

/** What {@link HookSystem} runs hooks with. */
export interface HookSystemOptions {
  registry: HookRegistry;
  logger: Logger;
  /** The environment command hooks start from (sanitized). */
  commandEnv: NodeJS.ProcessEnv;
  /** Receives a record of every hook run. */
  onRecord?: (record: HookRunRecord) => void;
}

/**
 * gemini-cli's `GEMINI_PLANS_DIR`: `<~/.gemini>/tmp/<project>/<session id>/plans`, next to the session's `chats/`
 * folder when the session is stored in gemini-cli's files.
 */
export function plansDirFor(scope: HookScope): string {
  const { transcriptPath, ctx } = scope;
  const projectTemp =
    transcriptPath !== ''
      ? dirname(dirname(transcriptPath))
      : join(geminiGlobalDir(), 'tmp', slugifyProjectName(ctx.cwd));
  return join(projectTemp, ctx.sessionId, 'plans');
}

/** Plans, runs and merges the hooks of one agent for each event (see {@link executeHooks}). */
export class HookSystem {
  constructor(private readonly options: HookSystemOptions) {}

  /** True when at least one enabled hook is registered for the event (the zero-hook path stays free). */
  has(event: HookEventName): boolean {
    return this.options.registry.has(event);
  }

  /** The hook input of `event`: gemini-cli's common fields, then the event's own. */
  input<E extends HookEventName>(
    event: E,
    fields: HookInputFields[E],
    scope: HookScope,
  ): HookInput<E> {
    return {
      session_id: scope.ctx.sessionId,
      transcript_path: scope.transcriptPath,
      cwd: scope.ctx.cwd,
      hook_event_name: event,
      timestamp: isoTimestamp(),
      ...fields,
    } as HookInput<E>;
  }

  /**
   * The hooks of a tool event that match `toolName` (cached per tool name), or undefined when none does — checked
   * before a tool interceptor builds any input, so a call no hook matches costs one lookup and no allocation.
   */
  toolPlan<E extends 'BeforeTool' | 'AfterTool'>(
    event: E,
    toolName: string,
  ): (HookPlan & { readonly event: E }) | undefined {
    return this.options.registry.toolPlan(event, toolName) as
      (HookPlan & { readonly event: E }) | undefined;
  }

  /**
   * Fires `event`: the matching hooks run (see {@link executeHooks}) and their merged answer comes back, or
   * undefined when no hook matched or none answered. Never throws for a hook's failure. The answer is synchronous
   * when every matching hook answered synchronously (`await` it either way).
   */
  fire<E extends HookEventName>(
    event: E,
    fields: HookInputFields[E],
    scope: HookScope,
    match?: HookMatchContext,
  ): AnyHookOutput | undefined | Promise<AnyHookOutput | undefined> {
    const plan = this.options.registry.plan(event, match);
    return plan === undefined ? undefined : this.run(plan, fields, scope);
  }

  /** Runs a plan of {@link toolPlan} or {@link fire} with the event's input fields; answers as {@link fire}. */
  run<E extends HookEventName>(
    plan: HookPlan & { readonly event: E },
    fields: HookInputFields[E],
    scope: HookScope,
  ): AnyHookOutput | undefined | Promise<AnyHookOutput | undefined> {
    const result = executeHooks(plan, this.input(plan.event, fields, scope), {
      ctx: scope.ctx,
      commandEnv: this.options.commandEnv,
      plansDir: () => plansDirFor(scope),
      emit: scope.emit,
      logger: this.options.logger,
      onRecord: this.options.onRecord,
      reported: scope.reported,
    });
    return result instanceof Promise ? result.then(outputOf) : result.output;
  }
}

function outputOf(result: HookEventResult): AnyHookOutput | undefined {
  return result.output;
}
