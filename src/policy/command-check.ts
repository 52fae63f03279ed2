import { randomUUID } from 'node:crypto';
import type { ApprovalRequest, ServerGeminiStreamEvent } from '../events.js';
import type { CommandCheck, CommandDecision } from '../workspace/workspace-shell.js';
import { alwaysAllowRule } from './approvals/always-allow.js';
import {
  confirmationUnsupportedMessage,
  normalizeApprovalResponse,
  policyDeniedMessage,
  userDeniedMessage,
  type ApprovalHandler,
} from './approvals/approval-response.js';
import { raceAbort } from '../core/abort.js';
import { SHELL_TOOL_NAME } from './compiled-rule.js';
import type { PolicyCheckResult, PolicyEngine } from './policy-engine.js';
import type { ApprovalRecord } from './policy-gate.js';
import type { ApprovalMode, PolicyRule } from '../core/policy-rule.js';
import type { SessionRules } from './session-rules.js';

/** Display name used in messages about `ctx.shell` commands. */
export const SHELL_DISPLAY_NAME = 'Shell';

/** Options of {@link createCommandCheck}. */
export interface CommandCheckOptions {
  /** The approval mode, or a function returning the current one. */
  mode?: ApprovalMode | (() => ApprovalMode);
  /** Asks a human. Without it every ask is a deny (a running tool cannot pause). */
  onApproval?: ApprovalHandler;
  /** The session's "always allow" rules; `allow_always` adds to them. */
  sessionRules: SessionRules;
  /** Emits `tool_call_confirmation` before asking, when the caller has a stream to emit into. */
  emit?: (event: ServerGeminiStreamEvent) => void;
  /** Called after each human decision (record it in the session). */
  onDecision?: (record: ApprovalRecord) => void | Promise<void>;
  /** Called with the engine's verdict on each command, before anything else happens (record rule decisions). */
  onCheck?: (command: string, result: PolicyCheckResult) => void;
  /** Aborts a pending question: a signal, or a function returning the current stream's signal. */
  signal?: AbortSignal | (() => AbortSignal | undefined);
  /** Call ids for approval requests (default `shell-<uuid>`). */
  newCallId?: () => string;
  /**
   * `'model'` (default): the full policy, as for a `run_shell_command` call. `'developer'`: the command comes from
   * the developer's own code (a custom tool or hook calling `ctx.shell`), so only a rule someone wrote — in code or
   * a policy file, not a built-in default or the mode's default — can deny it or make it ask; everything else runs.
   */
  caller?: 'model' | 'developer';
}

/**
 * True when a written rule (not a built-in default) itself made the decision — not the mode's default, and not a
 * stricter reading of an allow rule (a wrapper or redirection the rule does not cover).
 */
function explicitRule(result: PolicyCheckResult): boolean {
  return (
    result.rule !== undefined &&
    result.rule.tier !== 'default' &&
    result.rule.decision === result.decision
  );
}

/**
 * The policy side of `ctx.shell`'s {@link CommandCheck}: every command is decided like a `run_shell_command` call
 * (`{ command, dir_path: cwd }`), with the same shell analysis — for developer code (`caller: 'developer'`) only
 * written rules count. Ask goes to `onApproval`; with no handler it is a deny whose reason is gemini-cli's
 * "requires user confirmation" text.
 */
export function createCommandCheck(
  engine: PolicyEngine,
  options: CommandCheckOptions,
): CommandCheck {
  const currentMode = (): ApprovalMode =>
    typeof options.mode === 'function' ? options.mode() : (options.mode ?? engine.mode);
  const newCallId = options.newCallId ?? (() => `shell-${randomUUID()}`);

  return async (command: string, { cwd }: { cwd: string }): Promise<CommandDecision> => {
    const mode = currentMode();
    const call = { name: SHELL_TOOL_NAME, args: { command, dir_path: cwd } };
    const result = await engine.check(call, {
      kind: 'execute',
      mode,
      interactive: options.onApproval !== undefined,
      sessionRules: options.sessionRules,
    });
    options.onCheck?.(command, result);
    if (result.decision === 'allow' || (options.caller === 'developer' && !explicitRule(result))) {
      return { decision: 'allow' };
    }
    if (result.decision === 'deny')
      return { decision: 'deny', reason: policyDeniedMessage(result.denyMessage) };
    if (!options.onApproval) {
      return { decision: 'deny', reason: confirmationUnsupportedMessage(SHELL_DISPLAY_NAME) };
    }
    const reason = result.note ?? result.rule?.label;
    const request: ApprovalRequest = {
      callId: newCallId(),
      toolName: SHELL_TOOL_NAME,
      args: call.args,
      description: `Run shell command: ${command}`,
      kind: 'execute',
      ...(reason ? { reason } : {}),
    };
    options.emit?.({
      type: 'tool_call_confirmation',
      value: {
        request: {
          callId: request.callId,
          name: SHELL_TOOL_NAME,
          args: call.args,
          isClientInitiated: false,
          prompt_id: '',
        },
        details: request,
      },
    });
    const current = typeof options.signal === 'function' ? options.signal() : options.signal;
    const signal = current ?? new AbortController().signal;
    const askedAt = new Date().toISOString();
    const answer = normalizeApprovalResponse(
      await raceAbort(Promise.resolve(options.onApproval(request, { signal })), current),
    );
    let addedRule: PolicyRule | undefined;
    if (answer.decision === 'allow_always') {
      addedRule = await alwaysAllowRule(call, { mode, parser: () => engine.shellParser() });
      if (addedRule) options.sessionRules.add(addedRule);
    }
    await options.onDecision?.({
      request,
      decision: answer.decision,
      message: answer.message,
      addedRule,
      askedAt,
    });
    return answer.decision === 'deny'
      ? { decision: 'deny', reason: userDeniedMessage(answer.message) }
      : { decision: 'allow' };
  };
}
