import { compileLinearRegex, type LinearRegex } from '../linear-regex.js';
import { PolicyRuleError } from './policy-errors.js';
import {
  PolicyRule,
  TIER_BASE,
  type ApprovalMode,
  type ParsedPolicyRule,
  type PolicyDecision,
  type PolicyTier,
  type RuleOrigin,
  MAX_RULE_REGEX_LENGTH,
} from '../core/policy-rule.js';
import { formatMcpToolName, toolNameMatcher } from './tool-name-match.js';

/** The shell tool's name: `commandPrefix` / `commandRegex` only apply to it. */
export const SHELL_TOOL_NAME = 'run_shell_command';

/** A rule ready to be matched: one tool name, one compiled args regex, a final priority. */
export interface CompiledRule {
  /** The rule's `name`, if it had one. */
  readonly name: string | undefined;
  /** The tool name pattern (after `mcpName` expansion). */
  readonly toolName: string;
  readonly matchesToolName: (toolName: string) => boolean;
  readonly mcpName: string | undefined;
  readonly subagent: string | undefined;
  /** Compiled from `argsPattern`, `commandPrefix` or `commandRegex` (linear-time engine). */
  readonly argsPattern: LinearRegex | undefined;
  /**
   * True when the rule names shell commands: `commandPrefix`, `commandRegex`, or an `argsPattern` that mentions
   * `command`. Only such rules can let a wrapper (`env`, `bash -c`, …) or a dangerous command run unasked.
   */
  readonly targetsCommand: boolean;
  readonly decision: PolicyDecision;
  /** Final priority: tier base + priority / 1000. */
  readonly priority: number;
  readonly modes: readonly ApprovalMode[] | undefined;
  readonly interactive: boolean | undefined;
  readonly toolAnnotations: Readonly<Record<string, unknown>> | undefined;
  readonly kinds: readonly string[] | undefined;
  readonly allowRedirection: boolean;
  readonly denyMessage: string | undefined;
  /** Where the rule came from, e.g. `Default`, `User: /home/me/.gemini/policies/x.toml`, `Session`. */
  readonly source: string;
  /** The rule's tier: `default` for built-in rules, anything else for rules someone wrote. */
  readonly tier: PolicyTier;
  /** Insertion order, the last tie-break. */
  readonly order: number;
}

/** gemini-cli's ReDoS heuristic: a quantified group that contains a quantifier. */
const NESTED_QUANTIFIER = /\([^)]*[*+?{].*\)[*+?{]/;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * gemini-cli's `commandPrefix` sugar: the prefix must start the command and be followed by a space or the end of
 * the command. gemini-cli also accepts any `\s` (which includes Unicode spaces bash does not split on) or an
 * escaped quote after the prefix, so `ls"x"` (the command `lsx`) rides on a rule for `ls`; we don't.
 */
export function commandPrefixPattern(prefix: string): string {
  const encoded = JSON.stringify(prefix).slice(0, -1);
  return `${escapeRegex(`"command":${encoded}`)}(?:[ "])`;
}

/** gemini-cli's `commandRegex` sugar: the regex is anchored to the start of the command value. */
export function commandRegexPattern(regex: string): string {
  return `"command":"${regex}`;
}

/**
 * Compiles a rule pattern with the linear-time engine (user patterns must never backtrack: `(a|a)*c` passes
 * the nested-quantifier heuristic and would still run for minutes on a backtracking engine). The heuristic
 * stays, so files gemini-cli refuses are refused here too.
 */
function compileRegex(source: string, fail: (message: string) => never): LinearRegex {
  if (source.length > MAX_RULE_REGEX_LENGTH)
    fail(`the regex is longer than ${MAX_RULE_REGEX_LENGTH} characters`);
  if (NESTED_QUANTIFIER.test(source)) {
    fail(`the regex ${JSON.stringify(source)} nests quantifiers (catastrophic backtracking risk)`);
  }
  try {
    return compileLinearRegex(source);
  } catch (error) {
    return fail(`invalid regex ${JSON.stringify(source)}: ${(error as Error).message}`);
  }
}

function checkShellSugar(rule: ParsedPolicyRule, fail: (message: string) => never): void {
  const sugar = rule.commandPrefix !== undefined || rule.commandRegex !== undefined;
  if (!sugar) return;
  if (rule.toolName !== SHELL_TOOL_NAME) {
    fail(`commandPrefix and commandRegex need toolName = "${SHELL_TOOL_NAME}" (a single name)`);
  }
  if (rule.argsPattern !== undefined)
    fail('commandPrefix / commandRegex cannot be combined with argsPattern');
  if (rule.commandPrefix !== undefined && rule.commandRegex !== undefined) {
    fail('commandPrefix and commandRegex cannot be used together');
  }
}

function describeOrigin(origin: RuleOrigin, rule?: { name?: string | undefined }): string {
  const where = origin.ruleIndex === undefined ? 'policy rule' : `rule #${origin.ruleIndex + 1}`;
  const named = rule?.name ? ` ("${rule.name}")` : '';
  return origin.file ? `${where}${named} in ${origin.file}` : `${where}${named} (${origin.source})`;
}

/** Validates one rule with zod; errors name the rule (and its file). */
export function parsePolicyRule(input: unknown, origin: RuleOrigin): ParsedPolicyRule {
  const parsed = PolicyRule.safeParse(input);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(rule)'}: ${issue.message}`)
    .join('; ');
  const named =
    typeof input === 'object' && input !== null ? (input as { name?: unknown }).name : undefined;
  throw new PolicyRuleError(
    `Invalid ${describeOrigin(origin, { name: typeof named === 'string' ? named : undefined })}: ${details}. ` +
      'Fix the rule (see docs/policy.md for the fields).',
    { file: origin.file, ruleIndex: origin.ruleIndex },
  );
}

/**
 * Turns one validated rule into matchable rules: one per tool name and per command prefix, regexes compiled,
 * priority banded by tier. Throws a {@link PolicyRuleError} naming the rule for bad regexes and shell sugar
 * misuse (gemini-cli only reports these; we refuse them so a typo never widens a rule).
 */
export function compileRule(
  rule: ParsedPolicyRule,
  origin: RuleOrigin,
  order: number,
): CompiledRule[] {
  const fail = (message: string): never => {
    throw new PolicyRuleError(`Invalid ${describeOrigin(origin, rule)}: ${message}.`, {
      file: origin.file,
      ruleIndex: origin.ruleIndex,
    });
  };
  checkShellSugar(rule, fail);
  const priority = origin.finalPriority ?? TIER_BASE[origin.tier] + (rule.priority ?? 0) / 1000;
  const patterns: Array<string | undefined> =
    rule.commandPrefix !== undefined
      ? (Array.isArray(rule.commandPrefix) ? rule.commandPrefix : [rule.commandPrefix]).map(
          commandPrefixPattern,
        )
      : rule.commandRegex !== undefined
        ? [commandRegexPattern(rule.commandRegex)]
        : [rule.argsPattern];
  const names = Array.isArray(rule.toolName) ? rule.toolName : [rule.toolName];
  const compiled: CompiledRule[] = [];
  for (const name of names) {
    const toolName = rule.mcpName === undefined ? name : formatMcpToolName(rule.mcpName, name);
    for (const pattern of patterns) {
      compiled.push({
        name: rule.name,
        toolName,
        matchesToolName: toolNameMatcher(toolName),
        mcpName: rule.mcpName,
        subagent: rule.subagent,
        argsPattern: pattern === undefined ? undefined : compileRegex(pattern, fail),
        targetsCommand:
          rule.commandPrefix !== undefined ||
          rule.commandRegex !== undefined ||
          /command/.test(rule.argsPattern ?? ''),
        decision: rule.decision,
        priority,
        modes: rule.modes,
        interactive: rule.interactive,
        toolAnnotations: rule.toolAnnotations,
        kinds: rule.kinds,
        allowRedirection: rule.allowRedirection ?? false,
        denyMessage: rule.denyMessage,
        source: origin.source,
        tier: origin.tier,
        order: order + compiled.length,
      });
    }
  }
  return compiled;
}

/** Validates and compiles a list of rules from one origin; errors name the rule index. */
export function compileRules(
  rules: readonly unknown[],
  origin: RuleOrigin,
  firstOrder = 0,
): CompiledRule[] {
  const compiled: CompiledRule[] = [];
  rules.forEach((input, ruleIndex) => {
    const at = { ...origin, ruleIndex: origin.ruleIndex ?? ruleIndex };
    compiled.push(...compileRule(parsePolicyRule(input, at), at, firstOrder + compiled.length));
  });
  return compiled;
}

const DECISION_WEIGHT: Readonly<Record<PolicyDecision, number>> = {
  deny: 2,
  ask_user: 1,
  allow: 0,
};

/** Rule order: higher priority first; at equal priority deny, then ask_user, then allow; then insertion order. */
export function compareRules(a: CompiledRule, b: CompiledRule): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  const weight = DECISION_WEIGHT[b.decision] - DECISION_WEIGHT[a.decision];
  return weight !== 0 ? weight : a.order - b.order;
}

/** A short human label of a rule, for `explain()` and approval requests. */
export function describeRule(rule: CompiledRule): string {
  const parts = [`${rule.decision} ${rule.toolName}`];
  if (rule.name) parts.push(`"${rule.name}"`);
  if (rule.argsPattern) parts.push(`args ~ /${rule.argsPattern.source}/`);
  if (rule.kinds) parts.push(`kinds ${rule.kinds.join(',')}`);
  if (rule.modes) parts.push(`modes ${rule.modes.join(',')}`);
  parts.push(`priority ${Number(rule.priority.toFixed(3))}`);
  return `${parts.join(', ')} (${rule.source})`;
}
