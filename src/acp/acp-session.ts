import type {
  ContentBlock,
  PromptResponse,
  SessionConfigOption,
  SessionModeState,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { GeminiCliAgent } from '../agent/agent.js';
import type { GeminiCliSession } from '../agent/session.js';
import { ModelBehaviorError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import { invalidParams, invalidState, toRequestError } from './acp-errors.js';
import { runCommand, type AcpCommandContext } from './commands.js';
import { replayUpdates } from './history-replay.js';
import { promptToParts } from './prompt-parts.js';
import { ClientGoneError, PromptTurn, type TurnHost } from './prompt-turn.js';
import { approvalModeOf, configOptions, modeIdOf, modeState } from './session-config.js';
import type { ToolCatalog } from './tool-display.js';

/** What an {@link AcpSession} is built from. */
export interface AcpSessionInit {
  session: GeminiCliSession;
  /** The agent the session runs on, its own: closed with the session (which stops its MCP servers). */
  agent: GeminiCliAgent;
  /** The session's working directory (absolute). */
  cwd: string;
  catalog: ToolCatalog;
  /** The session's `ctx.fs`. */
  fs: SandboxFilesystem;
  /** The models offered in the model selector. */
  models: readonly string[];
  alwaysAllow: boolean;
  logger: Logger;
  /** Version and name shown by `/about`. */
  about: string;
  send(update: SessionUpdate): Promise<void>;
  requestPermission: TurnHost['requestPermission'];
}

/** Longest session title announced (gemini-cli's session list cuts the first prompt at 200 characters). */
const TITLE_LIMIT = 200;

/**
 * One ACP session: an SDK session plus its turn state. One prompt runs at a time; `session/cancel` aborts it
 * (the running tool's signal fires, the history stays valid); closing cancels and releases the session.
 */
export class AcpSession {
  readonly id: string;
  private turn: { controller: AbortController; done: Promise<unknown> } | undefined;
  /** Approvals left from a turn the user cancelled are dropped, not asked again. */
  private askPending = true;
  /** A new session gets its title (the first prompt) announced once; stored sessions already have one. */
  private titled: boolean;
  private closed = false;

  constructor(
    private readonly init: AcpSessionInit,
    isNew: boolean,
  ) {
    this.id = init.session.id;
    this.titled = !isNew;
  }

  /** The SDK session. */
  get session(): GeminiCliSession {
    return this.init.session;
  }

  /** The `modes` of a session response. */
  modes(): SessionModeState {
    return modeState(this.session.approvalMode);
  }

  /** The `configOptions` of a session response. */
  configOptions(): SessionConfigOption[] {
    return configOptions(this.session.approvalMode, this.session.model, this.init.models);
  }

  /** `session/set_mode` (and the `mode` config option): switches the approval mode and says so. */
  async setMode(modeId: string): Promise<void> {
    const mode = approvalModeOf(modeId);
    this.session.setApprovalMode(mode);
    await this.init.send({ sessionUpdate: 'current_mode_update', currentModeId: modeIdOf(mode) });
  }

  /** `session/set_config_option`: the mode or the model. */
  async setConfigOption(configId: string, value: unknown): Promise<SessionConfigOption[]> {
    if (typeof value !== 'string') {
      throw invalidParams(`config option ${JSON.stringify(configId)} takes a string value.`);
    }
    if (configId === 'mode') {
      await this.setMode(value);
    } else if (configId === 'model') {
      const known = this.configOptions().find((o) => o.id === 'model');
      const values = known && known.type === 'select' ? known.options : [];
      if (!values.some((o) => 'value' in o && o.value === value)) {
        throw invalidParams(
          `unknown model ${JSON.stringify(value)}; use one of ${values.map((o) => ('value' in o ? o.value : '')).join(', ')}.`,
        );
      }
      this.session.setModel(value);
    } else {
      throw invalidParams(
        `unknown config option ${JSON.stringify(configId)}; use "mode" or "model".`,
      );
    }
    return this.configOptions();
  }

  /** Streams the stored conversation back (`session/load`), before the load is answered. */
  async replay(): Promise<void> {
    for (const update of replayUpdates(
      this.session.getHistory(),
      this.init.catalog,
      this.init.cwd,
    )) {
      await this.init.send(update);
    }
  }

  /**
   * `session/prompt`. A second prompt while one runs is refused (`-32600`); a cancelled turn ends with
   * `cancelled`; model errors become gemini-cli's JSON-RPC errors.
   */
  async prompt(blocks: readonly ContentBlock[]): Promise<PromptResponse> {
    if (this.closed) throw invalidState(`session ${this.id} is closed.`);
    if (this.turn !== undefined) {
      throw invalidState(
        `session ${this.id} is already processing a prompt: wait for its response or send session/cancel.`,
      );
    }
    const controller = new AbortController();
    const work = this.runPrompt(blocks, controller);
    this.turn = { controller, done: work.catch(() => undefined) };
    try {
      return await work;
    } finally {
      this.turn = undefined;
    }
  }

  private async runPrompt(
    blocks: readonly ContentBlock[],
    controller: AbortController,
  ): Promise<PromptResponse> {
    const parts = await promptToParts(blocks, this.init.fs);
    await this.announceTitle(blocks);
    const command = await runCommand(parts, this.commandContext());
    if (command) return { stopReason: 'end_turn' };
    const turn = new PromptTurn(this.turnHost(), controller);
    try {
      return { stopReason: await turn.run(parts, this.askPending) };
    } catch (error) {
      if (error instanceof ClientGoneError || controller.signal.aborted)
        return { stopReason: 'cancelled' };
      if (error instanceof ModelBehaviorError) {
        // gemini-cli ends a turn quietly when the model's answer was empty or invalid.
        this.init.logger.warn('The model turn ended with an invalid response', {
          error: error.message,
        });
        return { stopReason: 'end_turn' };
      }
      throw toRequestError(error);
    } finally {
      if (controller.signal.aborted) this.askPending = false;
      else if (this.session.pendingApprovals.length === 0) this.askPending = true;
    }
  }

  /** `session_info_update` with the first prompt as the title of a new session (as `session/list` shows it). */
  private async announceTitle(blocks: readonly ContentBlock[]): Promise<void> {
    if (this.titled) return;
    const text = blocks.find((b) => b.type === 'text' && b.text.trim() !== '');
    if (text?.type !== 'text' || text.text.trim().startsWith('/')) return;
    this.titled = true;
    const title = text.text.trim().replace(/\s+/g, ' ');
    await this.init.send({
      sessionUpdate: 'session_info_update',
      title: title.length > TITLE_LIMIT ? `${title.slice(0, TITLE_LIMIT - 1)}…` : title,
      updatedAt: new Date().toISOString(),
    });
  }

  /** `session/cancel`: aborts the running turn, if any (a no-op otherwise). */
  cancel(): void {
    this.turn?.controller.abort();
  }

  /**
   * Cancels the running turn, waits for it to settle (at most `graceMs`), and releases the session's lease.
   * Idempotent.
   */
  async close(graceMs: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const turn = this.turn;
    if (turn) {
      turn.controller.abort();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        turn.done,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
          timer.unref?.();
        }),
      ]);
      clearTimeout(timer);
    }
    await this.session.close().catch((error: unknown) => {
      this.init.logger.warn('Closing an ACP session failed', {
        sessionId: this.id,
        error: error instanceof Error ? error.message : String(error),
      });
    });
    await this.init.agent.close().catch((error: unknown) => {
      this.init.logger.warn("Closing an ACP session's agent failed", {
        sessionId: this.id,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }

  private turnHost(): TurnHost {
    const { init } = this;
    return {
      sessionId: this.id,
      session: init.session,
      cwd: init.cwd,
      catalog: init.catalog,
      fs: init.fs,
      alwaysAllow: init.alwaysAllow,
      logger: init.logger,
      send: init.send,
      requestPermission: init.requestPermission,
    };
  }

  private commandContext(): AcpCommandContext {
    return { session: this.session, about: this.init.about, send: this.init.send };
  }
}
