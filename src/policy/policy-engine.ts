import { silentLogger, type Logger } from '../logger.js';
import {
  compareRules,
  compileRules,
  describeRule,
  SHELL_TOOL_NAME,
  type CompiledRule,
} from './compiled-rule.js';
import { DEFAULT_POLICY_RULES } from './default-rules.js';
import type {
  ApprovalMode,
  PolicyDecision,
  PolicyRule,
  PolicySource,
  PolicyTier,
} from '../core/policy-rule.js';
import type { SessionRules } from './session-rules.js';
import { loadBashParser } from './bash-parser.js';
import { checkShellCommand, type RuleVerdict, type ShellStep } from './shell-check.js';
import type { ShellParser } from './shell-syntax.js';
import { stableStringify } from './stable-stringify.js';
import { mcpServerOf } from './tool-name-match.js';
import { INVOKE_AGENT_TOOL_NAME } from '../core/session-runtime.js';

/** The call being decided: a tool name and its arguments. */
export interface PolicyCall {
  name: string;
  args: Record<string, unknown>;
}

/** What else the engine needs to know about the call. */
export interface PolicyCheckContext {
  /** The tool's kind (`read`, `edit`, `execute`, …); rules with `kinds` need it. */
  kind?: string;
  /** Approval mode for this check (default: the engine's mode). */
  mode?: ApprovalMode;
  /** Whether a human can be asked; selects rules with `interactive` set (default true). */
  interactive?: boolean;
  /** The session's "always allow" rules. */
  sessionRules?: SessionRules;
  /** MCP server of the tool, when not encoded in its `mcp_<server>_<tool>` name. */
  serverName?: string;
  /** MCP tool annotations (`readOnlyHint`, …), for rules with `toolAnnotations`. */
  toolAnnotations?: Record<string, unknown>;
  /** The subagent making the call, for rules with `subagent`. */
  subagent?: string;
}

/** A plain description of a rule, safe to log or serialise. */
export interface PolicyRuleInfo {
  name: string | undefined;
  toolName: string;
  decision: PolicyDecision;
  /** Final priority (tier + priority / 1000). */
  priority: number;
  source: string;
  /** The rule's tier: `default` for the built-in rules, anything else for rules someone wrote (code or files). */
  tier: PolicyTier;
  argsPattern: string | undefined;
  modes: readonly ApprovalMode[] | undefined;
  kinds: readonly string[] | undefined;
  denyMessage: string | undefined;
  /** One-line summary. */
  label: string;
}

/** The engine's verdict on one call. */
export interface PolicyCheckResult {
  decision: PolicyDecision;
  /** The deciding rule; absent when the mode's default decided (no rule matched). */
  rule?: PolicyRuleInfo;
  /** The deciding rule's `denyMessage`, on deny. */
  denyMessage?: string;
  /** Why the decision is stricter than the rule (shell wrapper, redirection, unparsable command, …). */
  note?: string;
}

/** {@link PolicyCheckResult} plus how it was reached, for debugging. */
export interface PolicyExplanation extends PolicyCheckResult {
  /** The deciding rule's label, or the built-in default that applied. */
  decidedBy: string;
  mode: ApprovalMode;
  /** For shell commands: every command looked at, with its own decision. */
  steps: Array<{
    command: string;
    decision: PolicyDecision;
    decidedBy: string;
    note?: string;
    depth: number;
  }>;
}

/** Options of {@link PolicyEngine}. */
export interface PolicyEngineOptions {
  /** The default approval mode (default `default`). */
  mode?: ApprovalMode;
  /** Rules in code; tier `user` (final priority 4 + priority / 1000). */
  rules?: readonly PolicyRule[];
  /** Rules loaded from TOML files (see `loadPolicyFiles`). */
  sources?: readonly PolicySource[];
  /** Include gemini-cli's built-in rules (default true). Without them every unmatched call asks. */
  defaults?: boolean;
  /** The shell parser (default: tree-sitter-bash, loaded on the first shell check). */
  shellParser?: ShellParser | (() => Promise<ShellParser>);
  logger?: Logger;
}

function defaultDecisionLabel(mode: ApprovalMode): string {
  return mode === 'yolo'
    ? 'built-in default (yolo: allow)'
    : 'built-in default (no rule matched: ask_user)';
}

/** Each rule's {@link describeRule} label, made on its first match (a check reports it on every tool call). */
const labels = new WeakMap<CompiledRule, string>();

function labelOf(rule: CompiledRule): string {
  let label = labels.get(rule);
  if (label === undefined) {
    label = describeRule(rule);
    labels.set(rule, label);
  }
  return label;
}

function info(rule: CompiledRule): PolicyRuleInfo {
  return {
    name: rule.name,
    toolName: rule.toolName,
    decision: rule.decision,
    priority: rule.priority,
    source: rule.source,
    tier: rule.tier,
    argsPattern: rule.argsPattern?.source,
    modes: rule.modes,
    kinds: rule.kinds,
    denyMessage: rule.denyMessage,
    label: labelOf(rule),
  };
}

/**
 * Decides every tool call: built-in tools, custom tools, `activate_skill`, MCP tools and subagents, plus the
 * commands tools run through `ctx.shell`. Rules are matched by descending priority (deny, then ask, then allow
 * at equal priority); the first match decides. Shell commands are parsed and every part is checked.
 */
export class PolicyEngine {
  /** The default approval mode. */
  readonly mode: ApprovalMode;
  private readonly rules: readonly CompiledRule[];
  private readonly logger: Logger;
  private readonly parserSource: ShellParser | (() => Promise<ShellParser>);
  private merged: { session: SessionRules; version: number; rules: CompiledRule[] } | undefined;

  constructor(options: PolicyEngineOptions = {}) {
    this.mode = options.mode ?? 'default';
    this.logger = options.logger ?? silentLogger;
    this.parserSource = options.shellParser ?? loadBashParser;
    const compiled: CompiledRule[] = [];
    if (options.defaults !== false) {
      compiled.push(
        ...compileRules(
          DEFAULT_POLICY_RULES,
          { tier: 'default', source: 'Default' },
          compiled.length,
        ),
      );
    }
    for (const source of options.sources ?? []) {
      source.rules.forEach((rule, ruleIndex) => {
        compiled.push(...compileRules([rule], { ...source.origin, ruleIndex }, compiled.length));
      });
    }
    compiled.push(
      ...compileRules(
        options.rules ?? [],
        { tier: 'user', source: 'Code (policy.rules)' },
        compiled.length,
      ),
    );
    this.rules = compiled.sort(compareRules);
  }

  /** Decides one call. */
  async check(call: PolicyCall, ctx: PolicyCheckContext = {}): Promise<PolicyCheckResult> {
    const { result } = await this.evaluate(call, ctx);
    return result;
  }

  /** Decides one call and says how: the deciding rule (or default) and, for shell commands, every step. */
  async explain(call: PolicyCall, ctx: PolicyCheckContext = {}): Promise<PolicyExplanation> {
    const mode = ctx.mode ?? this.mode;
    const { result, steps } = await this.evaluate(call, ctx);
    return {
      ...result,
      mode,
      decidedBy: result.rule?.label ?? defaultDecisionLabel(mode),
      steps: steps.map((step) => ({
        command: step.command,
        decision: step.decision,
        decidedBy: step.rule ? labelOf(step.rule) : defaultDecisionLabel(mode),
        ...(step.note ? { note: step.note } : {}),
        depth: step.depth,
      })),
    };
  }

  /**
   * Whether a tool is shut out whatever its arguments, so it should not be offered to the model (gemini-cli's
   * `getExcludedTools`): the first rule that names it (ignoring argument patterns) decides — an unconditional
   * `deny`, or an unconditional `ask_user` when nobody can be asked (`interactive: false`); a conditional rule
   * that is not a deny keeps the tool (some arguments may pass); no rule: excluded unless yolo, when nobody can
   * be asked.
   */
  isExcluded(toolName: string, ctx: PolicyCheckContext = {}): boolean {
    const mode = ctx.mode ?? this.mode;
    const canAsk = ctx.interactive ?? true;
    for (const rule of this.rulesFor(ctx.sessionRules)) {
      if (!this.appliesTo(rule, toolName, ctx, mode)) continue;
      if (rule.argsPattern) {
        if (rule.decision === 'deny') continue;
        return false;
      }
      return rule.decision === 'deny' || (rule.decision === 'ask_user' && !canAsk);
    }
    return mode !== 'yolo' && !canAsk;
  }

  /**
   * Every rule of the engine in the order it matches them (highest final priority first; gemini-cli's built-in
   * rules have tier `default`), each as a plain {@link PolicyRuleInfo} — what `gemini-agent --show-config` lists.
   */
  listRules(): PolicyRuleInfo[] {
    return this.rules.map(info);
  }

  /** The shell parser (loaded on first use). */
  async shellParser(): Promise<ShellParser> {
    return typeof this.parserSource === 'function' ? this.parserSource() : this.parserSource;
  }

  private async evaluate(
    call: PolicyCall,
    ctx: PolicyCheckContext,
  ): Promise<{ result: PolicyCheckResult; steps: ShellStep[] }> {
    const mode = ctx.mode ?? this.mode;
    const rules = this.rulesFor(ctx.sessionRules);
    const verdict = this.match(call, ctx, mode, rules);
    const command = call.args.command;
    if (
      call.name !== SHELL_TOOL_NAME ||
      typeof command !== 'string' ||
      verdict.decision === 'deny'
    ) {
      return { result: this.result(verdict.decision, verdict.rule, undefined), steps: [] };
    }
    const parser = await this.shellParser();
    // Rules are sorted by priority: the first active deny rule for the shell is the strongest promise.
    const shellDenyRule = rules.find(
      (rule) =>
        rule.decision === 'deny' && this.active(rule, ctx, mode) && rule.matchesToolName(call.name),
    );
    const shell = checkShellCommand(command, {
      parser,
      mode,
      match: (text) =>
        this.match({ name: call.name, args: { ...call.args, command: text } }, ctx, mode, rules),
      shellDenyRulesExist: shellDenyRule !== undefined,
      shellDenyRule,
    });
    if (shell.note)
      this.logger.debug('policy: shell command needs more than its rules say', {
        command,
        note: shell.note,
      });
    return { result: this.result(shell.decision, shell.rule, shell.note), steps: shell.steps };
  }

  private result(
    decision: PolicyDecision,
    rule: CompiledRule | undefined,
    note: string | undefined,
  ): PolicyCheckResult {
    return {
      decision,
      ...(rule ? { rule: info(rule) } : {}),
      ...(decision === 'deny' && (rule?.denyMessage ?? note)
        ? { denyMessage: rule?.denyMessage ?? note }
        : {}),
      ...(note ? { note } : {}),
    };
  }

  private rulesFor(session: SessionRules | undefined): readonly CompiledRule[] {
    if (!session || session.rules.length === 0) return this.rules;
    if (this.merged?.session !== session || this.merged.version !== session.version) {
      this.merged = {
        session,
        version: session.version,
        rules: [...this.rules, ...session.rules].sort(compareRules),
      };
    }
    return this.merged.rules;
  }

  private active(rule: CompiledRule, ctx: PolicyCheckContext, mode: ApprovalMode): boolean {
    if (rule.modes && !rule.modes.includes(mode)) return false;
    if (rule.interactive !== undefined && rule.interactive !== (ctx.interactive ?? true))
      return false;
    if (rule.subagent !== undefined && rule.subagent !== ctx.subagent) return false;
    return true;
  }

  /** Whether a rule applies to a tool in this mode and context, before looking at the arguments. */
  private appliesTo(
    rule: CompiledRule,
    toolName: string,
    ctx: PolicyCheckContext,
    mode: ApprovalMode,
  ): boolean {
    if (!this.active(rule, ctx, mode)) return false;
    if (rule.kinds && (ctx.kind === undefined || !rule.kinds.includes(ctx.kind))) return false;
    if (rule.mcpName !== undefined) {
      const server = ctx.serverName ?? mcpServerOf(toolName);
      if (server === undefined || (rule.mcpName !== '*' && rule.mcpName !== server)) return false;
    }
    if (!rule.matchesToolName(toolName)) return false;
    if (rule.toolAnnotations) {
      const annotations = ctx.toolAnnotations ?? {};
      return Object.entries(rule.toolAnnotations).every(([k, v]) => annotations[k] === v);
    }
    return true;
  }

  private match(
    call: PolicyCall,
    ctx: PolicyCheckContext,
    mode: ApprovalMode,
    rules: readonly CompiledRule[],
  ): RuleVerdict {
    let stringified: string | undefined;
    // gemini-cli: a subagent's name is an alias of `invoke_agent`, so `toolName = "reviewer"` rules match its calls.
    const alias =
      call.name === INVOKE_AGENT_TOOL_NAME && typeof call.args['agent_name'] === 'string'
        ? call.args['agent_name']
        : undefined;
    for (const rule of rules) {
      if (
        !this.appliesTo(rule, call.name, ctx, mode) &&
        (alias === undefined || !this.appliesTo(rule, alias, ctx, mode))
      )
        continue;
      if (rule.argsPattern) {
        stringified ??= stableStringify(call.args);
        if (!rule.argsPattern.test(stringified)) continue;
      }
      return { decision: rule.decision, rule };
    }
    return { decision: mode === 'yolo' ? 'allow' : 'ask_user', rule: undefined };
  }
}
