import { compileLinearRegex, type LinearRegex } from '../linear-regex.js';
import type { CommandHookConfig } from './command-hook.js';
import { HOOK_SOURCE_PRIORITY, type HookEventName, type HookSource } from './hook-types.js';
import type { RuntimeHookAction } from './runtime-hook.js';

/** How one registered hook runs: a shell command (settings files) or a function (the `hooks` option). */
export type HookImplementation =
  | { type: 'command'; config: CommandHookConfig }
  | { type: 'runtime'; action: RuntimeHookAction; timeoutMs: number | undefined };

/** One hook as registered for one event. */
export interface HookEntry {
  event: HookEventName;
  source: HookSource;
  /** The hook's name, else its command: how warnings, `hooksConfig.disabled` and `disabled` refer to it. */
  name: string;
  /** gemini-cli's identity key `<name>:<command>` (de-duplication, trust). */
  key: string;
  /** The matcher as configured (trimmed when compared). */
  matcher: string | undefined;
  sequential: boolean;
  enabled: boolean;
  implementation: HookImplementation;
  /** What it does (in-process hooks; a command hook's is in its config). */
  description?: string | undefined;
}

/** What an event is matched against: the tool name (tool events) or the source/reason/trigger (session events). */
export interface HookMatchContext {
  toolName?: string;
  trigger?: string;
}

/** The hooks to run for one event, in order, and how. */
export interface HookPlan {
  readonly event: HookEventName;
  readonly entries: readonly HookEntry[];
  /** True when any planned hook's definition asked for `sequential: true`. */
  readonly sequential: boolean;
}

const compiledMatchers = new Map<string, LinearRegex | null>();

function toolMatcher(matcher: string): LinearRegex | null {
  let compiled = compiledMatchers.get(matcher);
  if (compiled === undefined) {
    try {
      compiled = compileLinearRegex(matcher);
    } catch {
      compiled = null;
    }
    if (compiledMatchers.size > 256) compiledMatchers.clear();
    compiledMatchers.set(matcher, compiled);
  }
  return compiled;
}

/**
 * gemini-cli's matcher semantics: no matcher, no context, `""` or `*` match everything; with a tool name the
 * matcher is a regular expression searched in the name (unanchored: `read` matches `read_file`), compared exactly
 * when it is not a valid pattern; with a trigger (SessionStart's source, SessionEnd's reason, PreCompress's
 * trigger) it must equal it. Patterns run on a linear-time engine (RE2 syntax), so a hostile matcher cannot hang
 * the agent; one RE2 cannot compile (lookaround, backreferences) is compared exactly.
 */
export function matchesHook(matcher: string | undefined, context?: HookMatchContext): boolean {
  if (matcher === undefined || context === undefined) return true;
  const trimmed = matcher.trim();
  if (trimmed === '' || trimmed === '*') return true;
  if (context.toolName) {
    const compiled = toolMatcher(trimmed);
    return compiled === null ? trimmed === context.toolName : compiled.test(context.toolName);
  }
  if (context.trigger) return trimmed === context.trigger;
  return true;
}

/** How many plans a registry keeps per event (one per tool name or trigger seen). */
const PLAN_CACHE_SIZE = 256;

/** Registered hooks, sorted by source once, planned per event (plans are cached: entries never change). */
export class HookRegistry {
  private readonly byEvent = new Map<HookEventName, HookEntry[]>();
  private readonly plans = new Map<HookEventName, Map<string, HookPlan | undefined>>();
  /** The events with at least one enabled hook, fixed at construction (entries never change). */
  private readonly active = new Set<HookEventName>();

  constructor(entries: readonly HookEntry[]) {
    const sorted = [...entries].sort(
      (a, b) => HOOK_SOURCE_PRIORITY[a.source] - HOOK_SOURCE_PRIORITY[b.source],
    );
    for (const entry of sorted) {
      const list = this.byEvent.get(entry.event) ?? [];
      list.push(entry);
      this.byEvent.set(entry.event, list);
      if (entry.enabled) this.active.add(entry.event);
    }
  }

  /** True when at least one enabled hook is registered for `event` (one set lookup: no matching). */
  has(event: HookEventName): boolean {
    return this.active.has(event);
  }

  /** Every registered entry, in run order. */
  all(): HookEntry[] {
    return [...this.byEvent.values()].flat();
  }

  /**
   * gemini-cli's planner: the enabled hooks of the event, in source order, filtered by matcher, de-duplicated by
   * key (the first wins); sequential when any of them asked for it. Undefined when none matches.
   */
  plan(event: HookEventName, context?: HookMatchContext): HookPlan | undefined {
    const key =
      context?.toolName ?? (context?.trigger === undefined ? '' : `\u0000${context.trigger}`);
    return this.cachedPlan(event, key, context);
  }

  /**
   * {@link plan} for a tool event and `toolName`, without a match context object unless the plan is not cached
   * yet: the path every tool call takes, which allocates nothing when no hook of the event matches the tool.
   */
  toolPlan(event: HookEventName, toolName: string): HookPlan | undefined {
    return this.cachedPlan(event, toolName, undefined, toolName);
  }

  private cachedPlan(
    event: HookEventName,
    key: string,
    context: HookMatchContext | undefined,
    toolName?: string,
  ): HookPlan | undefined {
    if (!this.active.has(event)) return undefined;
    let cached = this.plans.get(event);
    if (cached === undefined) this.plans.set(event, (cached = new Map()));
    const hit = cached.get(key);
    if (hit !== undefined || cached.has(key)) return hit;
    const candidates = this.byEvent.get(event) as HookEntry[];
    const plan = this.makePlan(event, candidates, toolName === undefined ? context : { toolName });
    if (cached.size >= PLAN_CACHE_SIZE) cached.clear();
    cached.set(key, plan);
    return plan;
  }

  private makePlan(
    event: HookEventName,
    candidates: readonly HookEntry[],
    context: HookMatchContext | undefined,
  ): HookPlan | undefined {
    const seen = new Set<string>();
    const entries: HookEntry[] = [];
    for (const entry of candidates) {
      if (!entry.enabled || !matchesHook(entry.matcher, context) || seen.has(entry.key)) continue;
      seen.add(entry.key);
      entries.push(entry);
    }
    if (entries.length === 0) return undefined;
    return Object.freeze({
      event,
      entries: Object.freeze(entries),
      sequential: entries.some((e) => e.sequential),
    });
  }
}
