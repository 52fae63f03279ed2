import { randomUUID } from 'node:crypto';
import type { SkillManager } from '../skills/skill-manager.js';
import type { GeminiCliAgentOptions } from './agent-options.js';
import { createAgentServices, type AgentServices } from './agent-services.js';
import { GeminiCliSession } from './session.js';

/** Options of {@link GeminiCliAgent.session}. */
export interface SessionOptions {
  /** The session id (default: a random UUID). */
  sessionId?: string;
}

/**
 * An agent: configuration plus a session factory. Cheap to construct; nothing is validated or loaded until the
 * first session is created.
 *
 * @example
 * ```ts
 * const agent = new GeminiCliAgent({ instructions: 'You are concise.', tools: [add] });
 * const session = agent.session();
 * for await (const event of session.sendStream('What is 23 + 79?')) console.log(event);
 * ```
 */
export class GeminiCliAgent {
  /** The options this agent was created with. */
  readonly options: GeminiCliAgentOptions;
  private services: AgentServices | undefined;

  constructor(options: GeminiCliAgentOptions = {}) {
    this.options = options ?? {};
  }

  /**
   * Creates a new, empty session.
   *
   * @throws ConfigurationError for invalid options (e.g. `Instructions must be a string or a function.`).
   */
  session(options: SessionOptions = {}): GeminiCliSession {
    return new GeminiCliSession(this, this.getServices(), options.sessionId ?? randomUUID());
  }

  /**
   * Reopens a stored session with its history.
   *
   * @throws SessionNotFoundError `Session with ID <id> not found`.
   */
  async resumeSession(sessionId: string): Promise<GeminiCliSession> {
    const services = this.getServices();
    const log = await services.persistence.open(sessionId, { resume: true, cwd: services.cwd });
    return new GeminiCliSession(this, services, sessionId, log);
  }

  /**
   * Loads (once) and returns the agent's skills: `list()`, `enable(name)`, `disable(name)`. Shared by all of the
   * agent's sessions; the `activate_skill` tool follows changes on the next model call.
   */
  async skills(signal?: AbortSignal): Promise<SkillManager> {
    return this.getServices().skills.load(signal);
  }

  private getServices(): AgentServices {
    this.services ??= createAgentServices(this.options);
    return this.services;
  }
}
