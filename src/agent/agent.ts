import { extensionListing, type ExtensionListing } from './agent-extensions.js';
import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Part } from '@google/genai';
import type { AgentHandle } from '../core/session-context.js';
import type { ServerGeminiStreamEvent } from '../events.js';
import { SessionError } from '../errors.js';
import type { SessionSummary } from '../sessions/session-store.js';
import { AgentMcp } from '../mcp/agent-mcp.js';
import type { SkillManager } from '../skills/skill-manager.js';
import { hookListing, type HookListing } from '../hooks/hook-info.js';
import type { LoadedSettings } from '../settings/load-settings.js';
import type { SubagentListing } from '../subagents/subagents-feature.js';
import type { GeminiCliAgentOptions } from './agent-options.js';
import { createAgentServices, type AgentServices } from './agent-services.js';
import { validateAgentOptions } from './options-schema.js';
import { GeminiCliSession } from './session.js';
import { runTeardowns } from './teardown.js';
import { validateBudget, type Budget } from '../context/budget.js';

/** Options of {@link GeminiCliAgent.session}. */
export interface SessionOptions {
  /** The session id (default: a random UUID). An id that is already stored continues that session. */
  sessionId?: string;
  /**
   * This session's budget, over the agent's `budget` option (each limit given replaces the agent's, and the one
   * stored with a continued session). See docs/context.md.
   */
  budget?: Budget;
}

/**
 * An agent: configuration plus a session factory. Cheap to construct: the options are validated at once (a wrong
 * value throws `ConfigurationError` naming the field); nothing is loaded until the first session is created.
 *
 * @example
 * ```ts
 * const agent = new GeminiCliAgent({ instructions: 'You are concise.', tools: [add] });
 * const session = agent.session();
 * for await (const event of session.sendStream('What is 23 + 79?')) console.log(event);
 * ```
 */
export class GeminiCliAgent implements AgentHandle {
  /** The options this agent was created with. */
  readonly options: GeminiCliAgentOptions;
  private services: AgentServices | undefined;
  private mcpApi: AgentMcp | undefined;
  private closed = false;

  /**
   * @throws ConfigurationError when an option has the wrong type or value, is unknown (`modle`), or names a
   *   missing `cwd`; the message names the field, what it got and what it expects.
   */
  constructor(options: GeminiCliAgentOptions = {}) {
    validateAgentOptions(options);
    this.options = options ?? {};
  }

  /**
   * Creates a session. It is stored (and takes its lease) when it initializes — on the first `sendStream` or
   * `initialize()`. Without a `sessionId` it is a new, empty session with a random UUID. With a `sessionId` that is
   * already stored, it continues that conversation (its history, as `resumeSession(id)` would load it); a stored
   * session is never started over.
   *
   * @throws ConfigurationError for invalid options (e.g. `Instructions must be a string or a function.`).
   */
  session(options: SessionOptions = {}): GeminiCliSession {
    const services = this.getServices();
    const chosen = options?.sessionId;
    const budget = sessionBudget(options?.budget, 'session({ budget })');
    const session =
      chosen === undefined
        ? new GeminiCliSession(this, services, randomUUID())
        : new GeminiCliSession(this, services, chosen, undefined, true);
    session.budgetLimits = budget;
    return session;
  }

  /**
   * Sends one prompt in a new session and streams its events (the reference SDK's `agent.sendStream`): the same
   * as `agent.session().sendStream(prompt, signal)`, with the session closed when the stream ends, however it
   * ends. Each call is its own conversation; keep a `session()` to continue one.
   */
  async *sendStream(
    prompt: string | Part[],
    signal?: AbortSignal,
  ): AsyncGenerator<ServerGeminiStreamEvent, void> {
    const session = this.session();
    try {
      yield* session.sendStream(prompt, signal);
    } finally {
      await session.close();
    }
  }

  /**
   * Reopens a stored session with its exact history (tool calls and results included) and takes its lease. A
   * session of this agent that holds the id and is idle is closed first (the reference SDK's `session()` then
   * `resumeSession(sameId)` pattern); approvals it was waiting for wait in the resumed session.
   *
   * @throws SessionNotFoundError `No sessions found in <dir>` (none stored) or `Session with ID <id> not found`.
   * @throws SessionLockedError while another live session — streaming in this agent, in another agent or another
   *   process — holds it.
   */
  async resumeSession(
    sessionId: string,
    options: { budget?: Budget } = {},
  ): Promise<GeminiCliSession> {
    const budget = sessionBudget(options.budget, 'resumeSession(id, { budget })');
    const session = await GeminiCliSession.resume(
      this,
      this.getServices(),
      sessionId,
      this.storeCwd(),
    );
    session.budgetLimits = budget;
    return session;
  }

  /**
   * The stored sessions of this agent's project (`cwd`), oldest start first: id, start and last-update time, the
   * summary or first prompt, and the message count.
   */
  async listSessions(options: { signal?: AbortSignal } = {}): Promise<SessionSummary[]> {
    return this.getServices().persistence.listSessions({ ...options, cwd: this.storeCwd() });
  }

  /**
   * Deletes a stored session and what belongs to it (gemini-cli's deletion set for file sessions).
   *
   * @throws SessionNotFoundError when there is no such session.
   * @throws SessionLockedError while a live session holds it (close it first).
   */
  async deleteSession(sessionId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
    await this.getServices().persistence.deleteSession(sessionId, {
      ...options,
      cwd: this.storeCwd(),
    });
  }

  /**
   * Loads (once) and returns the agent's skills: `list()`, `enable(name)`, `disable(name)`. Shared by all of the
   * agent's sessions; the `activate_skill` tool follows changes on the next model call.
   */
  async skills(signal?: AbortSignal): Promise<SkillManager> {
    return this.getServices().skills.load(signal);
  }

  /**
   * The agent's MCP servers (the settings' `mcpServers` and the `mcpServers` option): `status()`, `prompts()`,
   * `getPrompt()`, `resources()`, `readResource()`. Each starts the servers first if no session has yet.
   */
  get mcp(): AgentMcp {
    this.mcpApi ??= new AgentMcp(() => this.getServices().mcp.manager);
    return this.mcpApi;
  }

  /**
   * The agent's hooks, in run order: the `hooks` option's, then the settings files' command hooks (those in
   * `hooksConfig.disabled` listed with `enabled: false`), and the settings hooks that were skipped, with why.
   *
   * @throws SettingsFileError for a malformed settings or trusted-folders file.
   */
  hooks(): HookListing {
    const { hooks } = this.getServices();
    return hookListing(hooks.entries, hooks.warnings);
  }

  /**
   * The agent's subagents, in precedence order (the `subagents` option, the trusted workspace's
   * `.gemini/agents/*.md`, the user's `~/.gemini/agents/*.md`): name, description, source, whether the settings
   * enable it, its model, limits and tools; and the warnings (files that failed to load, duplicate names).
   */
  async subagents(signal?: AbortSignal): Promise<SubagentListing> {
    return this.getServices().subagents.list(signal);
  }

  /**
   * The agent's extensions (the `extensions` option and the installed ones), active or not, and the problems found
   * loading them (the skipped folders with gemini-cli's texts).
   *
   * @throws SettingsFileError for a malformed settings or trusted-folders file.
   */
  extensions(): ExtensionListing {
    return extensionListing(this.getServices().extensions.resolved);
  }

  /**
   * gemini-cli's settings as this agent loaded them (see the `settings` option): the merged values, the files
   * read, folder trust and the warnings about ignored keys. Loaded once, with the first session.
   *
   * @throws SettingsFileError for a malformed settings or trusted-folders file.
   */
  get settings(): LoadedSettings {
    return this.getServices().settings;
  }

  /**
   * Closes the agent: every session of it that holds a lease is closed (its features' teardowns run), then every
   * feature's `dispose()`, last feature first. Idempotent; afterwards the agent creates no sessions. Let running
   * streams end (or abort them) first: a stream whose session closes fails at its next write. Also
   * `await using agent = new GeminiCliAgent(…)`.
   *
   * @throws SessionError `FEATURE_DISPOSE_FAILED` when a teardown failed (all of them still ran).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const services = this.services;
    if (services === undefined) return;
    const features = services.features.map((feature) => () => feature.dispose?.());
    const sessions = services.openSessions.all().map((session) => () => session.close());
    // Reverse order: the sessions close first (newest first), then the features (last first).
    await runTeardowns([...features, ...sessions], 'Closing the agent');
  }

  /** `await using agent = new GeminiCliAgent(…)` closes the agent at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** The project folder sessions are stored under: `cwd` as the sessions' workspaces resolve it. */
  private storeCwd(): string {
    const absolute = resolve(this.getServices().cwd);
    try {
      return realpathSync(absolute);
    } catch {
      return absolute;
    }
  }

  private getServices(): AgentServices {
    if (this.closed) {
      throw new SessionError(
        'This agent is closed: create a new GeminiCliAgent to start sessions.',
        {
          code: 'AGENT_CLOSED',
        },
      );
    }
    this.services ??= createAgentServices(this.options);
    return this.services;
  }
}

/** A session's own budget, checked (undefined when none is given). */
function sessionBudget(value: unknown, what: string): Budget | undefined {
  return value === undefined ? undefined : validateBudget(value, what);
}
