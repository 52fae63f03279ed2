import { randomUUID } from 'node:crypto';
import { ConfigurationError } from '../errors.js';
import type { ApprovalRequest, ServerGeminiStreamEvent } from '../events.js';
import { alwaysAllowRule } from './approvals/always-allow.js';
import {
  confirmationUnsupportedMessage,
  policyDeniedMessage,
  userDeniedMessage,
  type ApprovalDecision,
  type ApprovalScope,
} from './approvals/approval-response.js';
import { createCommandCheck } from './command-check.js';
import type { AgentTool } from '../core/agent-tool.js';
import type {
  PolicyCheckContext,
  PolicyCheckResult,
  PolicyEngine,
  PolicyExplanation,
} from './policy-engine.js';
import { createPolicyGate, type ApprovalRecord, type ToolGate } from './policy-gate.js';
import { ApprovalMode, type PolicyRule } from '../core/policy-rule.js';
import { SessionRules } from './session-rules.js';
import type { CommandCheck } from '../workspace/workspace-shell.js';
import type { AgentPolicy } from './agent-policy.js';
import type { ApprovalLogEntry, PolicyCallInput, SessionPolicyState } from './approval-log.js';
import type { ToolCallApproval } from '../core/session-log.js';

export type {
  ApprovalLogDecision,
  ApprovalLogEntry,
  PolicyCallInput,
  SessionPolicyState,
} from './approval-log.js';

type ToolFacts = Pick<PolicyCheckContext, 'serverName' | 'toolAnnotations'>;

/** What the engine may match about a tool besides its name and kind (its server, its annotations). */
function toolFacts(tool: Pick<AgentTool, 'serverName' | 'annotations'>): ToolFacts {
  return {
    ...(tool.serverName === undefined ? {} : { serverName: tool.serverName }),
    ...(tool.annotations === undefined ? {} : { toolAnnotations: { ...tool.annotations } }),
  };
}

/** How the session lets its policy reach the running stream. */
export interface SessionPolicyHooks {
  /** Emits into the running stream, if any (`tool_call_confirmation` for `ctx.shell` commands). */
  emit(event: ServerGeminiStreamEvent): void;
  /** The running stream's signal, if any (aborts a question about a `ctx.shell` command). */
  signal(): AbortSignal | undefined;
}

/**
 * One session's side of the policy: its approval mode (changeable at any time), its "always allow" rules, its
 * decision log, the {@link ToolGate} the loop asks before each call, and the check `ctx.shell` commands pass.
 * Reach it as `session.policy`.
 */
export class SessionPolicy {
  /** The "always allow" rules added in this session (by `allow_always`). */
  readonly rules: SessionRules;
  private currentMode: ApprovalMode;
  private readonly entries: ApprovalLogEntry[] = [];
  /** The latest decision on each model call not yet stored with its result (see {@link takeDecisions}). */
  // Made on first use: a session that never checks a tool keeps no empty maps (P5, heap per idle session).
  private unstored: Map<string, ApprovalLogEntry> | undefined;
  private kinds: Map<string, string> | undefined;
  private facts: Map<string, ToolFacts> | undefined;
  private readonly listeners = new Set<() => void>();
  private gateImpl: ToolGate | undefined;
  private commandCheckImpl: CommandCheck | undefined;
  private policyGate: ToolGate | undefined;
  private shellCheck: CommandCheck | undefined;

  /** @internal Built by the session. */
  constructor(
    private readonly agent: AgentPolicy,
    private readonly hooks: SessionPolicyHooks,
  ) {
    this.currentMode = agent.mode;
    this.rules = new SessionRules();
  }

  /** The current approval mode. */
  get mode(): ApprovalMode {
    return this.currentMode;
  }

  /**
   * Changes the approval mode for the next decisions of this session (`plan`, `default`, `auto_edit`, `yolo`).
   *
   * @throws ConfigurationError for an unknown mode.
   */
  setMode(mode: ApprovalMode): void {
    const parsed = ApprovalMode.safeParse(mode);
    if (!parsed.success) {
      throw new ConfigurationError(
        `Unknown approval mode ${JSON.stringify(mode) ?? String(mode)}: use 'plan', 'default', 'auto_edit' or 'yolo'.`,
      );
    }
    this.currentMode = parsed.data;
    this.changed();
  }

  /** Every decision taken in this session so far, oldest first (a copy). */
  get log(): ApprovalLogEntry[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  /**
   * The latest decisions on these model calls, for storing them with the calls' results (`toolCalls[].sdkApproval`),
   * and forgets them. A call nobody decided here (a feature answered it, the tool is unknown) has none.
   */
  takeDecisions(callIds: readonly string[]): Record<string, ToolCallApproval> {
    const out: Record<string, ToolCallApproval> = {};
    for (const callId of callIds) {
      const entry = this.unstored?.get(callId);
      if (entry === undefined) continue;
      this.unstored?.delete(callId);
      out[callId] = {
        decision: entry.decision,
        by: entry.by,
        timestamp: entry.timestamp,
        ...(entry.askedAt === undefined ? {} : { askedAt: entry.askedAt }),
        ...(entry.rule === undefined ? {} : { rule: entry.rule }),
        ...(entry.message === undefined ? {} : { message: entry.message }),
      };
    }
    return out;
  }

  /** Whether a human can be asked (an `onApproval` handler, or approvals `pause`). */
  get interactive(): boolean {
    return this.agent.approvals === 'pause' || this.agent.onApproval !== undefined;
  }

  /** The engine (built on first use, shared by the agent's sessions). */
  engine(signal?: AbortSignal): Promise<PolicyEngine> {
    return this.agent.engine(signal);
  }

  /**
   * Says how the policy would decide a call right now in this session (its mode and "always allow" rules): the
   * decision, the deciding rule (or the built-in default) and, for shell commands, every sub-command.
   *
   * @example
   * ```ts
   * const why = await session.policy.explain({ name: 'run_shell_command', args: { command: 'ls && rm x' } });
   * console.log(why.decision, why.decidedBy, why.steps);
   * ```
   */
  async explain(call: PolicyCallInput, signal?: AbortSignal): Promise<PolicyExplanation> {
    const engine = await this.engine(signal);
    const kind = call.kind ?? this.kinds?.get(call.name) ?? this.agent.kindOf(call.name);
    const facts = this.facts?.get(call.name) ?? {};
    const serverName = call.serverName ?? facts.serverName;
    const toolAnnotations = call.toolAnnotations ?? facts.toolAnnotations;
    return engine.explain(
      { name: call.name, args: call.args ?? {} },
      {
        ...(kind === undefined ? {} : { kind }),
        ...(serverName === undefined ? {} : { serverName }),
        ...(toolAnnotations === undefined ? {} : { toolAnnotations }),
        mode: this.currentMode,
        interactive: this.interactive,
        sessionRules: this.rules,
      },
    );
  }

  /**
   * The tools to offer the model now: those the policy does not shut out whatever their arguments (gemini-cli
   * hides a tool it would deny anyway, and with nobody to ask also one it would ask about; the model then
   * gets gemini-cli's `Tool "x" not found` if it calls it regardless).
   */
  async offered<T extends Pick<AgentTool, 'name' | 'kind' | 'serverName' | 'annotations'>>(
    tools: T[],
    signal?: AbortSignal,
  ): Promise<T[]> {
    const engine = await this.engine(signal);
    return tools.filter(
      (tool) =>
        !engine.isExcluded(tool.name, {
          kind: tool.kind,
          ...toolFacts(tool),
          mode: this.currentMode,
          interactive: this.interactive,
          sessionRules: this.rules,
        }),
    );
  }

  /** The gate the loop asks before each tool call. */
  get gate(): ToolGate {
    this.gateImpl ??= {
      check: async (check) => {
        const engine = await this.engine(check.signal);
        this.policyGate ??= this.createGate(engine);
        return this.policyGate.check(check);
      },
    };
    return this.gateImpl;
  }

  /**
   * The check every `ctx.shell` command passes. `ctx.shell` is called by the developer's own code (custom tools,
   * hooks), so only a written rule that denies the command (or asks about it) stops it; commands the model asks
   * for go through `run_shell_command` and the full policy.
   */
  get commandCheck(): CommandCheck {
    this.commandCheckImpl ??= async (command, ctx) => {
      const engine = await this.engine(this.hooks.signal());
      this.shellCheck ??= createCommandCheck(engine, {
        caller: 'developer',
        mode: () => this.currentMode,
        ...(this.agent.onApproval ? { onApproval: this.agent.onApproval } : {}),
        sessionRules: this.rules,
        emit: (event) => this.hooks.emit(event),
        signal: () => this.hooks.signal(),
        onCheck: (text, result) => this.recordCheck(result, { via: 'shell', command: text }),
        onDecision: (record) => this.recordHuman(record, 'shell'),
      });
      return this.shellCheck(command, ctx);
    };
    return this.commandCheckImpl;
  }

  /**
   * Records a human decision taken outside the gate (e.g. on a paused call, through `resolveApprovals`) and, for
   * `allow_always`, adds the narrowed session rule. Returns the added rule, if any.
   */
  async recordDecision(
    request: ApprovalRequest,
    decision: ApprovalDecision,
    message?: string,
    scope?: ApprovalScope,
  ): Promise<PolicyRule | undefined> {
    let addedRule: PolicyRule | undefined;
    if (decision === 'allow_always') {
      const engine = await this.engine();
      addedRule = await alwaysAllowRule(
        { name: request.toolName, args: request.args },
        {
          mode: this.currentMode,
          parser: () => engine.shellParser(),
          mcpServer: request.mcp?.serverName,
          scope,
        },
      );
      if (addedRule) this.rules.add(addedRule);
    }
    this.recordHuman({ request, decision, message, addedRule }, 'tool');
    return addedRule;
  }

  /**
   * Logs the human decisions on paused calls (`resolveApprovals`); a paused call without a decision is logged as
   * denied by default.
   */
  logResolutions(
    pending: readonly ApprovalRequest[],
    decisions: ReadonlyArray<{ callId: string; outcome: 'allow' | 'deny'; message?: string }>,
  ): void {
    for (const request of pending) {
      const decision = decisions.find((d) => d.callId === request.callId);
      if (decision) {
        this.recordHuman(
          { request, decision: decision.outcome, message: decision.message, addedRule: undefined },
          'tool',
        );
      } else {
        this.push({
          callId: request.callId,
          toolName: request.toolName,
          decision: 'deny',
          by: 'default',
          timestamp: new Date().toISOString(),
          via: 'tool',
          message: 'No decision was given for this call.',
        });
      }
    }
  }

  /** The session's policy state, for persisting it. */
  snapshot(): SessionPolicyState {
    return { mode: this.currentMode, rules: this.rules.toJSON(), log: this.log };
  }

  /** Restores a persisted state (mode, "always allow" rules, log) into this session. */
  restore(state: Partial<SessionPolicyState>): void {
    if (state.mode !== undefined) this.currentMode = ApprovalMode.parse(state.mode);
    for (const rule of state.rules ?? []) this.rules.add(rule);
    for (const entry of state.log ?? []) this.entries.push({ ...entry });
    this.changed();
  }

  /** Calls `listener` after every change (decision logged, rule added, mode changed). Returns an unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private createGate(engine: PolicyEngine): ToolGate {
    return createPolicyGate({
      engine,
      mode: () => this.currentMode,
      ...(this.agent.onApproval ? { onApproval: this.agent.onApproval } : {}),
      approvals: this.agent.approvals,
      sessionRules: this.rules,
      enrichRequest: (check) => check.tool.approvalDetails?.(check.args),
      approvalRequested: (notice) => this.agent.notifyApproval(notice),
      checkContext: (check) => ({
        ...toolFacts(check.tool),
        ...(check.subagent === undefined ? {} : { subagent: check.subagent.name }),
      }),
      onCheck: (check, result) => {
        (this.kinds ??= new Map()).set(check.tool.name, check.tool.kind);
        (this.facts ??= new Map()).set(check.tool.name, toolFacts(check.tool));
        this.recordCheck(result, {
          via: 'tool',
          callId: check.request.callId,
          toolName: check.tool.name,
          displayName: check.tool.displayName,
        });
      },
      onDecision: (record) => this.recordHuman(record, 'tool'),
    });
  }

  /** Logs a rule's (or the mode default's) decision; asks are logged when answered, unless nobody can answer. */
  private recordCheck(
    result: PolicyCheckResult,
    call:
      | { via: 'tool'; callId: string; toolName: string; displayName: string }
      | { via: 'shell'; command: string },
  ): void {
    const base: Omit<ApprovalLogEntry, 'decision'> = {
      by: result.rule ? 'rule' : 'default',
      timestamp: new Date().toISOString(),
      ...(result.rule ? { rule: result.rule.label } : {}),
      ...(call.via === 'tool'
        ? { via: 'tool', callId: call.callId, toolName: call.toolName }
        : {
            via: 'shell',
            callId: `shell-${randomUUID()}`,
            toolName: 'run_shell_command',
            command: call.command,
          }),
    };
    if (result.decision === 'allow') return this.push({ ...base, decision: 'allow' });
    if (result.decision === 'deny') {
      return this.push({
        ...base,
        decision: 'deny',
        message: policyDeniedMessage(result.denyMessage),
      });
    }
    if (call.via === 'tool' && this.agent.approvals === 'pause') {
      return this.push({ ...base, decision: 'pending' });
    }
    if (!this.agent.onApproval) {
      const display = call.via === 'tool' ? call.displayName : 'Shell';
      this.push({ ...base, decision: 'deny', message: confirmationUnsupportedMessage(display) });
    }
  }

  private recordHuman(record: ApprovalRecord, via: 'tool' | 'shell'): void {
    const command = record.request.args['command'];
    const held = via === 'tool' ? this.unstored?.get(record.request.callId) : undefined;
    const askedAt = record.askedAt ?? (held?.decision === 'pending' ? held.timestamp : undefined);
    this.push({
      callId: record.request.callId,
      toolName: record.request.toolName,
      decision: record.decision,
      by: 'user',
      timestamp: new Date().toISOString(),
      via,
      ...(record.decision === 'deny' ? { message: userDeniedMessage(record.message) } : {}),
      ...(via === 'shell' && typeof command === 'string' ? { command } : {}),
      ...(askedAt === undefined ? {} : { askedAt }),
    });
  }

  private push(entry: ApprovalLogEntry): void {
    this.entries.push(entry);
    if (entry.via === 'tool') (this.unstored ??= new Map()).set(entry.callId, entry);
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
