import type { SessionContext } from '../core/session-context.js';
import type { ServerGeminiStreamEvent } from '../events.js';
import type { Logger } from '../logger.js';
import { runCommandHook, type HookRunResult } from './command-hook.js';
import { aggregateOutputs } from './hook-aggregator.js';
import { checkHookOutput } from './hook-output.js';
import type { HookEntry, HookPlan } from './hook-planner.js';
import type { AnyHookOutput, HookEventName, HookInput, HookSource } from './hook-types.js';
import { runRuntimeHook } from './runtime-hook.js';

/** What happened when one hook ran: kept for warnings, logs and `HookRunRecord` listeners. */
export interface HookRunRecord {
  event: HookEventName;
  /** The hook's name, else its command. */
  name: string;
  source: HookSource;
  type: 'command' | 'runtime';
  success: boolean;
  durationMs: number;
  exitCode?: number | null;
  /** Why it failed. */
  error?: string;
  /** Fields of its answer that were dropped (wrong type), one line each. */
  problems: string[];
  /** Its answer as applied (after checking). */
  output?: AnyHookOutput;
}

/** The merged answer of an event's hooks, and what each did. */
export interface HookEventResult {
  output: AnyHookOutput | undefined;
  records: HookRunRecord[];
}

/** What running hooks needs from where the event fired. */
export interface HookRunEnvironment {
  /** The context in-process hooks get (its `signal` aborts them with the turn). */
  ctx: SessionContext;
  /** The environment command hooks start from (sanitized). */
  commandEnv: NodeJS.ProcessEnv;
  /** `GEMINI_PLANS_DIR` (computed only for command hooks). */
  plansDir: () => string;
  /** Into the running stream: warnings and `hook_system_message`. */
  emit(event: ServerGeminiStreamEvent): void;
  logger: Logger;
  /** Called with every record (the hooks option `onHookRun`, tests). */
  onRecord?: ((record: HookRunRecord) => void) | undefined;
  /**
   * Failure warnings already given for this model call (`event:names`): streamed events (AfterModel) warn once
   * per call, as gemini-cli does.
   */
  reported?: Set<string> | undefined;
}

function runEntry(
  entry: HookEntry,
  input: HookInput,
  env: HookRunEnvironment,
): HookRunResult | Promise<HookRunResult> {
  const impl = entry.implementation;
  if (impl.type === 'runtime') return runRuntimeHook(impl.action, input, env.ctx, impl.timeoutMs);
  return runCommandHook(impl.config, input, {
    env: env.commandEnv,
    plansDir: env.plansDir(),
    signal: env.ctx.signal,
  });
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** gemini-cli's chaining of sequential hooks: a successful hook's answer shapes the next hook's input. */
function chainInput(input: HookInput, output: AnyHookOutput): HookInput {
  const specific = output.hookSpecificOutput;
  if (specific === undefined) return input;
  const next = { ...input } as Record<string, unknown>;
  switch (input.hook_event_name) {
    case 'BeforeAgent':
      if (typeof specific['additionalContext'] === 'string')
        next['prompt'] = `${input.prompt}\n\n${specific['additionalContext']}`;
      break;
    case 'BeforeModel':
      if (typeof specific['llm_request'] === 'object' && specific['llm_request'] !== null)
        next['llm_request'] = { ...input.llm_request, ...specific['llm_request'] };
      break;
    case 'BeforeTool':
      if (typeof specific['tool_input'] === 'object' && specific['tool_input'] !== null)
        next['tool_input'] = { ...input.tool_input, ...specific['tool_input'] };
      break;
    default:
      break;
  }
  return next as unknown as HookInput;
}

function record(entry: HookEntry, result: HookRunResult): HookRunRecord {
  const checked = result.output === undefined ? undefined : checkHookOutput(result.output);
  return {
    event: entry.event,
    name: entry.name,
    source: entry.source,
    type: entry.implementation.type,
    success: result.success,
    durationMs: result.durationMs,
    ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
    ...(result.error === undefined ? {} : { error: result.error }),
    problems: checked?.problems ?? [],
    ...(checked?.output === undefined ? {} : { output: checked.output }),
  };
}

/**
 * Runs the planned hooks of one event — in parallel, or one after another with the answers chained into the next
 * input when the plan is sequential (never cut short, as gemini-cli) — checks each answer, reports failures and
 * dropped fields as `warning` events and each `systemMessage` as a `hook_system_message` event, and merges the
 * answers with the event's strategy. Never throws for a hook's failure. Answers synchronously when every planned
 * hook did (in-process hooks that return a value): the tool round's BeforeTool hook then costs no promise.
 */
export function executeHooks(
  plan: HookPlan,
  input: HookInput,
  env: HookRunEnvironment,
): HookEventResult | Promise<HookEventResult> {
  const { entries } = plan;
  if (plan.sequential) return executeSequentially(plan, input, env);
  if (entries.length === 1) {
    const entry = entries[0] as HookEntry;
    const run = runEntry(entry, input, env);
    return isPromise(run)
      ? run.then((result) => finish(plan, [record(entry, result)], env))
      : finish(plan, [record(entry, run)], env);
  }
  const runs = entries.map((entry) => runEntry(entry, input, env));
  const recordAll = (results: readonly HookRunResult[]): HookEventResult =>
    finish(
      plan,
      entries.map((entry, i) => record(entry, results[i] as HookRunResult)),
      env,
    );
  return runs.some(isPromise)
    ? Promise.all(runs).then(recordAll)
    : recordAll(runs as HookRunResult[]);
}

async function executeSequentially(
  plan: HookPlan,
  input: HookInput,
  env: HookRunEnvironment,
): Promise<HookEventResult> {
  const records: HookRunRecord[] = [];
  let current = input;
  for (const entry of plan.entries) {
    const done = record(entry, await runEntry(entry, current, env));
    records.push(done);
    if (done.success && done.output !== undefined) current = chainInput(current, done.output);
  }
  return finish(plan, records, env);
}

/** Reports the runs and merges their answers. */
function finish(
  plan: HookPlan,
  records: HookRunRecord[],
  env: HookRunEnvironment,
): HookEventResult {
  report(plan.event, records, env);
  const outputs: AnyHookOutput[] = [];
  for (const r of records) if (r.output !== undefined) outputs.push(r.output);
  return { output: aggregateOutputs(plan.event, outputs), records };
}

function report(
  event: HookEventName,
  records: readonly HookRunRecord[],
  env: HookRunEnvironment,
): void {
  let failed: HookRunRecord[] | undefined;
  for (const r of records) {
    if (!r.success) (failed ??= []).push(r);
    env.onRecord?.(r);
    const data = { event, hook: r.name, source: r.source, durationMs: r.durationMs };
    if (r.success) env.logger.debug('hook ran', data);
    else env.logger.warn('hook failed', { ...data, error: r.error, exitCode: r.exitCode });
    for (const problem of r.problems) {
      env.logger.warn('hook output field ignored', { ...data, problem });
      env.emit({
        type: 'warning',
        value: {
          code: 'HOOK_OUTPUT_IGNORED',
          message: `Hook ${r.name} (${event}): ${problem}`,
          source: 'hooks',
        },
      });
    }
    const message = r.output?.systemMessage;
    if (message) {
      env.emit({
        type: 'hook_system_message',
        value: { hookName: r.name, eventName: event, message },
      });
    }
  }
  if (failed === undefined) return;
  const names = failed.map((r) => r.name).join(', ');
  const key = `${event}:${names}`;
  if (env.reported?.has(key)) return;
  env.reported?.add(key);
  const details = failed.map((r) => `${r.name}: ${r.error ?? 'failed'}`).join('; ');
  env.emit({
    type: 'warning',
    value: {
      code: 'HOOK_FAILED',
      message: `Hook(s) [${names}] failed for event ${event}: ${details}`,
      source: 'hooks',
    },
  });
}
