import type { SessionHandle } from '../core/session-context.js';
import type { SessionRuntime } from '../core/session-runtime.js';
import { ConfigurationError } from '../errors.js';
import type { SubagentActivityInfo } from '../events.js';
import type { Logger } from '../logger.js';
import { runSubagent } from './subagent-runner.js';
import {
  DEFAULT_SUBAGENT_MAX_TURNS,
  DEFAULT_SUBAGENT_TIMEOUT_MS,
  type ResolvedSubagent,
  type SubagentOptions,
  type SubagentRunResult,
} from './subagent-types.js';

/** gemini-cli's agent name rule (`^[a-z0-9-_]+$`). */
export const SUBAGENT_NAME = /^[a-z0-9-_]+$/;

/** Where a session's subagents run: the session's runtime, as the subagents feature saw it initialize. */
export interface SubagentHost {
  runtime: SessionRuntime;
  logger: Logger;
  /** The definition as this agent runs it (its settings override applied), or undefined when disabled. */
  effective(subagent: Subagent): ResolvedSubagent | undefined;
}

/** Finds where a session runs its subagents (a subagents feature that initialized it). */
export interface SubagentRegistry {
  hostOf(session: SessionHandle): SubagentHost | undefined;
}

/** Options of {@link Subagent.run}. */
export interface SubagentRunOptions {
  /** The session the run belongs to (its model, tools, policy, store and usage). */
  parent: SessionHandle;
  /** Aborts the run (`terminateReason: 'ABORTED'`). */
  signal?: AbortSignal;
  /** Receives the run's events (tool calls, results, thoughts, errors) as they happen. */
  onActivity?: (activity: SubagentActivityInfo) => void;
}

const positiveInteger = (value: unknown): boolean =>
  Number.isInteger(value) && (value as number) > 0;

function isSchema(value: unknown): boolean {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['~standard'] === 'object' || typeof v['safeParse'] === 'function';
}

/** Checks the options of {@link subagent} and normalises them. */
export function resolveSubagentOptions(
  options: SubagentOptions,
  source = 'code',
): ResolvedSubagent {
  const fail = (message: string): never => {
    throw new ConfigurationError(`Subagent ${JSON.stringify(options?.name ?? '')}: ${message}`);
  };
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError(
      'subagent() needs an options object: subagent({ name, description, instructions }).',
    );
  }
  if (typeof options.name !== 'string' || !SUBAGENT_NAME.test(options.name))
    fail('name must be a slug of lower-case letters, digits, "-" and "_" (e.g. "code-reviewer").');
  if (typeof options.description !== 'string' || options.description.trim() === '')
    fail(
      'description must be a non-empty string (the parent model reads it to decide when to delegate).',
    );
  if (typeof options.instructions !== 'string' && typeof options.instructions !== 'function')
    fail('instructions must be a string or a function (ctx) => string.');
  if (options.tools !== undefined) {
    const ok =
      Array.isArray(options.tools) &&
      options.tools.every(
        (t: unknown) =>
          typeof t === 'string' || (typeof t === 'object' && t !== null && 'name' in t),
      );
    if (!ok)
      fail("tools must be an array of tool names ('read_file', '*', 'mcp_*') or tool() objects.");
  }
  if (options.model !== undefined && (typeof options.model !== 'string' || options.model === ''))
    fail("model must be 'inherit' or a model id.");
  if (options.maxTurns !== undefined && !positiveInteger(options.maxTurns))
    fail(`maxTurns must be a positive integer (got ${String(options.maxTurns)}).`);
  if (
    options.timeoutMs !== undefined &&
    !(
      typeof options.timeoutMs === 'number' &&
      options.timeoutMs > 0 &&
      Number.isFinite(options.timeoutMs)
    )
  )
    fail(`timeoutMs must be a positive number of milliseconds (got ${String(options.timeoutMs)}).`);
  if (options.output !== undefined && !isSchema(options.output))
    fail(
      'output must be a zod schema (or another Standard Schema), e.g. z.object({ defects: z.array(z.string()) }).',
    );
  if (options.outputName !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.outputName))
    fail('outputName must be an identifier (letters, digits and "_").');
  if (options.processOutput !== undefined && typeof options.processOutput !== 'function')
    fail('processOutput must be a function (output) => string.');
  if (
    options.mcpServers !== undefined &&
    !(
      isPlainRecord(options.mcpServers) &&
      Object.values(options.mcpServers).every((config) => isPlainRecord(config))
    )
  )
    fail(
      'mcpServers must be an object of MCP servers by name, e.g. { github: { command, args } }.',
    );
  return {
    name: options.name,
    description: options.description,
    displayName: options.displayName,
    instructions: options.instructions,
    tools: options.tools === undefined ? undefined : [...options.tools],
    model: options.model ?? 'inherit',
    generationConfig: options.generationConfig,
    maxTurns: options.maxTurns ?? DEFAULT_SUBAGENT_MAX_TURNS,
    timeoutMs: options.timeoutMs ?? DEFAULT_SUBAGENT_TIMEOUT_MS,
    output: options.output,
    outputName: options.outputName ?? 'result',
    processOutput: options.processOutput as ((output: unknown) => string) | undefined,
    templated: false,
    source,
    mcpServers:
      options.mcpServers === undefined
        ? undefined
        : (Object.fromEntries(Object.entries(options.mcpServers)) as Record<
            string,
            Record<string, unknown>
          >),
  };
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A subagent: a focused agent with its own history and tools that the parent delegates to through `invoke_agent`,
 * or that code runs directly with {@link Subagent.run}. Make one with {@link subagent} or load one from a
 * `.gemini/agents/*.md` file; register it with `new GeminiCliAgent({ subagents: [it] })`.
 */
export class Subagent<Output = unknown> {
  /** @internal The normalised definition. */
  readonly definition: ResolvedSubagent;
  private readonly registries = new Set<WeakRef<SubagentRegistry>>();

  /** @internal Use {@link subagent}. */
  constructor(definition: ResolvedSubagent) {
    this.definition = definition;
  }

  /** The name the parent calls it by. */
  get name(): string {
    return this.definition.name;
  }

  /** What it does (shown to the parent model). */
  get description(): string {
    return this.definition.description;
  }

  /** Where it was defined: `code`, or the file it was loaded from. */
  get source(): string {
    return this.definition.source;
  }

  /** @internal A subagents feature that registered this subagent (held weakly: agents come and go). */
  registeredWith(registry: SubagentRegistry): void {
    for (const ref of this.registries) if (ref.deref() === registry) return;
    this.registries.add(new WeakRef(registry));
  }

  private hostOf(session: SessionHandle): SubagentHost | undefined {
    for (const ref of this.registries) {
      const registry = ref.deref();
      if (registry === undefined) this.registries.delete(ref);
      const host = registry?.hostOf(session);
      if (host !== undefined) return host;
    }
    return undefined;
  }

  /**
   * Runs the subagent on a task inside `parent` (its model, tools, policy and store), as `invoke_agent` would, and
   * resolves with the typed output. The run's usage counts in `parent.usage` (and `usage.subagents[name]`).
   *
   * @throws ConfigurationError when the parent's agent does not have this subagent (pass it in `subagents`).
   */
  async run(prompt: string, options: SubagentRunOptions): Promise<SubagentRunResult<Output>> {
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      throw new ConfigurationError(`Subagent "${this.name}": run(prompt) needs a non-empty task.`);
    }
    const parent = options?.parent;
    if (parent === undefined || typeof parent.initialize !== 'function') {
      throw new ConfigurationError(
        `Subagent "${this.name}": run(prompt, { parent: session }) needs the session to run in.`,
      );
    }
    await parent.initialize(options.signal);
    const host = this.hostOf(parent);
    const definition = host?.effective(this);
    if (host === undefined || definition === undefined) {
      throw new ConfigurationError(
        `Subagent "${this.name}" is not registered with the session's agent: pass it in the agent's subagents ` +
          `option (new GeminiCliAgent({ subagents: [${this.name}] })).`,
      );
    }
    const result = await runSubagent({
      definition,
      runtime: host.runtime,
      prompt,
      parentCallId: undefined,
      signal: options.signal,
      emit: (activity) => options.onActivity?.(activity),
      logger: host.logger,
    });
    return result as SubagentRunResult<Output>;
  }
}

/**
 * Defines a subagent (gemini-cli's local agent definition) in code.
 *
 * @example
 * ```ts
 * const reviewer = subagent({
 *   name: 'reviewer',
 *   description: 'Reviews a diff and lists defects',
 *   instructions: 'You are a strict code reviewer.',
 *   tools: ['read_file', 'grep_search'],
 *   output: z.object({ defects: z.array(z.string()) }),
 * });
 * const agent = new GeminiCliAgent({ subagents: [reviewer] });
 * const { output } = await reviewer.run('review src/', { parent: agent.session() });
 * ```
 * @throws ConfigurationError for a bad option (the message names it).
 */
export function subagent<Output = unknown>(options: SubagentOptions<Output>): Subagent<Output> {
  return new Subagent<Output>(resolveSubagentOptions(options as SubagentOptions));
}
