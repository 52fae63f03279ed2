import type { CompiledRule } from './compiled-rule.js';
import type { ApprovalMode, PolicyDecision } from '../core/policy-rule.js';
import { commandRisk } from './shell-command-risk.js';
import { joinLineContinuations } from './shell-quoting.js';
import type { ShellCommand, ShellParser } from './shell-syntax.js';

/** How deep wrapped scripts are followed (`bash -c "sh -c '…'"`); deeper nesting asks. */
export const MAX_SHELL_DEPTH = 6;

/** The rule decision for one command text (a rule, or the mode's default when no rule matches). */
export interface RuleVerdict {
  decision: PolicyDecision;
  rule: CompiledRule | undefined;
}

/** One command the analysis looked at, for `explain()`. */
export interface ShellStep {
  command: string;
  decision: PolicyDecision;
  rule: CompiledRule | undefined;
  /** Why the decision differs from the rule's (wrapper, redirection, parse error, …). */
  note: string | undefined;
  /** 0 for the command as sent, 1 inside `bash -c '…'`, and so on. */
  depth: number;
}

/** Outcome of the shell analysis. */
export interface ShellVerdict {
  decision: PolicyDecision;
  /** The rule responsible (its `denyMessage` is shown on deny). */
  rule: CompiledRule | undefined;
  /** Why the decision is stricter than the rules alone, when it is. */
  note: string | undefined;
  steps: ShellStep[];
}

/** What {@link checkShellCommand} needs from the engine. */
export interface ShellCheckContext {
  parser: ShellParser;
  /** Matches the rules against the call with `command` replaced by the given text. */
  match(command: string): RuleVerdict;
  mode: ApprovalMode;
  /**
   * True when some deny rule could apply to shell commands in this mode. Then code nobody can see (a command
   * name that expands, `eval "$x"`, a shell or interpreter fed code we cannot read, a script that does not
   * parse) is denied in every mode: no deny rule could be checked against it.
   */
  shellDenyRulesExist: boolean;
  /**
   * The highest-priority deny rule behind `shellDenyRulesExist`: a denial of unseen code names it, because it
   * is the promise the denial keeps (so its `denyMessage` shows, and callers that only honour written rules —
   * the developer's `ctx.shell` — honour it too).
   */
  shellDenyRule?: CompiledRule | undefined;
}

const RANK: Readonly<Record<PolicyDecision, number>> = { allow: 0, ask_user: 1, deny: 2 };

class Aggregate {
  decision: PolicyDecision = 'allow';
  rule: CompiledRule | undefined;
  note: string | undefined;
  seeded = false;

  add(decision: PolicyDecision, rule: CompiledRule | undefined, note: string | undefined): void {
    if (!this.seeded || RANK[decision] > RANK[this.decision]) {
      this.decision = decision;
      this.rule = rule;
      this.note = note;
      this.seeded = true;
    }
  }
}

/**
 * Decides a shell command the way gemini-cli does, made stricter where it leaks:
 * 1. a deny rule on the whole command denies;
 * 2. the script is parsed (tree-sitter-bash); a parse failure asks (yolo: allows unless a deny rule could apply);
 * 3. every simple command anywhere in it (lists, pipelines, `&`, newlines, subshells, `{ }`, substitutions,
 *    loops, function bodies, standalone assignments) is matched on its own: any deny denies, any ask asks;
 * 4. wrappers (`bash -c`, `env`, `xargs`, `sudo`, `find -exec`, …) ask unless a rule names them explicitly,
 *    and the command they wrap is checked too; code nobody can see (`eval "$x"`, `source`, `$CMD`) always asks;
 * 5. redirection to or from a file turns allow into ask, unless the mode is auto_edit / yolo or every allowing
 *    rule has `allowRedirection`.
 */
export function checkShellCommand(command: string, ctx: ShellCheckContext): ShellVerdict {
  const steps: ShellStep[] = [];
  const verdict = analyzeScript(command, 0, ctx, steps);
  return { ...verdict, steps };
}

/** The note on a denial of code no deny rule can be checked against. */
function unseenDenied(reason: string): string {
  return `${reason}; it is denied because deny rules for shell commands exist and cannot be checked against code that is not visible`;
}

function analyzeScript(
  script: string,
  depth: number,
  ctx: ShellCheckContext,
  steps: ShellStep[],
): Omit<ShellVerdict, 'steps'> {
  const first = analyzeForm(script, depth, ctx, steps);
  // bash joins backslash-newline before splitting words (`r\<newline>m` is `rm`); tree-sitter does not.
  const joined = joinLineContinuations(script);
  if (joined === script || first.decision === 'deny') return first;
  const second = analyzeForm(joined, depth, ctx, steps);
  return RANK[second.decision] > RANK[first.decision] ? second : first;
}

function analyzeForm(
  script: string,
  depth: number,
  ctx: ShellCheckContext,
  steps: ShellStep[],
): Omit<ShellVerdict, 'steps'> {
  const whole = ctx.match(script);
  if (whole.rule && whole.decision === 'deny') {
    steps.push({ command: script, decision: 'deny', rule: whole.rule, note: undefined, depth });
    return { decision: 'deny', rule: whole.rule, note: undefined };
  }
  const parsed = ctx.parser.parse(script);
  if (!parsed.ok) {
    const reason = `the command could not be parsed (${parsed.error ?? 'unknown error'})`;
    const decision: PolicyDecision = ctx.shellDenyRulesExist
      ? 'deny'
      : ctx.mode === 'yolo'
        ? 'allow'
        : 'ask_user';
    const note = decision === 'deny' ? unseenDenied(reason) : reason;
    const rule = decision === 'deny' ? ctx.shellDenyRule : whole.rule;
    steps.push({ command: script, decision, rule, note, depth });
    return { decision, rule, note };
  }
  const aggregate = new Aggregate();
  // A rule that looks at the command text can see what no single part shows (e.g. a pipe).
  if (whole.rule?.targetsCommand && whole.decision === 'ask_user')
    aggregate.add('ask_user', whole.rule, undefined);
  const allowingRules: Array<CompiledRule | undefined> = [];
  for (const command of parsed.commands) {
    const result = checkOne(command, depth, ctx, steps);
    if (result.decision === 'deny') return result;
    if (result.decision === 'allow') allowingRules.push(result.rule);
    aggregate.add(result.decision, result.rule, result.note);
  }
  const redirectionAllowed =
    ctx.mode === 'auto_edit' ||
    ctx.mode === 'yolo' ||
    (allowingRules.length > 0 && allowingRules.every((rule) => rule?.allowRedirection === true));
  if (aggregate.decision === 'allow' && parsed.hasRedirection && !redirectionAllowed) {
    const note = 'the command redirects to or from a file';
    steps.push({ command: script, decision: 'ask_user', rule: aggregate.rule, note, depth });
    return { decision: 'ask_user', rule: aggregate.rule, note };
  }
  return { decision: aggregate.decision, rule: aggregate.rule, note: aggregate.note };
}

function checkOne(
  command: ShellCommand,
  depth: number,
  ctx: ShellCheckContext,
  steps: ShellStep[],
): Omit<ShellVerdict, 'steps'> {
  let verdict = ctx.match(command.text);
  const [normalized, ...denyOnly] = normalizedForms(command);
  if (normalized !== undefined && verdict.decision !== 'deny') {
    const other = ctx.match(normalized);
    if (RANK[other.decision] > RANK[verdict.decision]) verdict = other;
  }
  for (const form of denyOnly) {
    if (verdict.decision === 'deny') break;
    const other = ctx.match(form);
    if (other.decision === 'deny') verdict = other;
  }
  if (verdict.decision === 'deny') {
    steps.push({
      command: command.text,
      decision: 'deny',
      rule: verdict.rule,
      note: undefined,
      depth,
    });
    return { decision: 'deny', rule: verdict.rule, note: undefined };
  }
  const risk = commandRisk(command);
  const renamed = ctx.shellDenyRulesExist ? copiesDeniedProgram(command, ctx) : undefined;
  if (renamed) {
    const note = `${renamed.reason}: a denied program under another name would escape the deny rule`;
    steps.push({ command: command.text, decision: 'deny', rule: renamed.rule, note, depth });
    return { decision: 'deny', rule: renamed.rule, note };
  }
  if (risk.opaque && ctx.shellDenyRulesExist) {
    const note = unseenDenied(risk.opaque);
    steps.push({ command: command.text, decision: 'deny', rule: ctx.shellDenyRule, note, depth });
    return { decision: 'deny', rule: ctx.shellDenyRule, note };
  }
  const explicit = verdict.rule?.targetsCommand === true;
  let decision = verdict.decision;
  let note: string | undefined;
  if (ctx.mode !== 'yolo' && decision === 'allow') {
    if (risk.opaque) note = risk.opaque;
    else if (!explicit && (risk.wrapper ?? risk.dangerous)) note = risk.wrapper ?? risk.dangerous;
    if (note) decision = 'ask_user';
  }
  steps.push({ command: command.text, decision, rule: verdict.rule, note, depth });
  const aggregate = new Aggregate();
  aggregate.add(decision, verdict.rule, note);
  for (const inner of risk.innerScripts) {
    if (depth + 1 > MAX_SHELL_DEPTH) {
      const reason = 'commands are nested too deeply to check';
      if (ctx.shellDenyRulesExist)
        return { decision: 'deny', rule: undefined, note: unseenDenied(reason) };
      aggregate.add('ask_user', verdict.rule, reason);
      continue;
    }
    const result = analyzeScript(inner, depth + 1, ctx, steps);
    if (result.decision === 'deny') return result;
    aggregate.add(result.decision, result.rule, result.note);
  }
  return { decision: aggregate.decision, rule: aggregate.rule, note: aggregate.note };
}

/** Commands that give an existing program another name (`ln -s /bin/rm x; ./x …`). */
const LINKERS = new Set(['ln', 'link', 'cp', 'install', 'mv', 'rsync']);

/**
 * `ln` / `cp` / `install` / `mv` of a program a deny rule names (`cp /bin/rm ./x`): the copy would run under a
 * name no rule knows. Returns the reason and the deny rule, or undefined.
 */
function copiesDeniedProgram(
  command: ShellCommand,
  ctx: ShellCheckContext,
): { rule: CompiledRule; reason: string } | undefined {
  if (command.type !== 'command') return undefined;
  const [name, ...args] = command.words.map((w) => w.literal);
  const program = name?.slice(name.lastIndexOf('/') + 1);
  if (program === undefined || !LINKERS.has(program)) return undefined;
  for (const arg of args) {
    if (arg === undefined || arg.startsWith('-') || arg === '') continue;
    const base = arg.slice(arg.lastIndexOf('/') + 1);
    if (base === '') continue;
    const verdict = ctx.match(base);
    if (verdict.decision === 'deny' && verdict.rule) {
      return {
        rule: verdict.rule,
        reason: `${program} ${arg} copies or links a program a deny rule names`,
      };
    }
  }
  return undefined;
}

/**
 * The command as it will run, when every word is fixed: quotes and escapes removed, leading assignments dropped
 * (`'rm' -f x`, `r\\m -f x` and `FOO=1 rm -f x` all read `rm -f x`); then the same with the command's path
 * removed (`/bin/rm -f x` → `rm -f x`), which only counts for deny rules. Rules match the text as written AND
 * these forms (the strictest decision wins), so quoting cannot dodge a deny rule.
 */
function normalizedForms(command: ShellCommand): string[] {
  if (command.type !== 'command' || command.words.length === 0) return [];
  const literals = command.words.map((w) => w.literal);
  if (literals.some((value) => value === undefined)) return [];
  const [name = '', ...args] = literals as string[];
  const normalized = [name, ...args].join(' ');
  const forms = [normalized];
  const cut = name.lastIndexOf('/');
  if (cut !== -1 && cut < name.length - 1) forms.push([name.slice(cut + 1), ...args].join(' '));
  return forms;
}

/**
 * The root commands of a script (names as written, wrapped commands included), e.g. `ls -la && git log | wc`
 * → `ls`, `git`, `wc`. "Always allow" on a shell call allows these prefixes for the session, as gemini-cli.
 * Empty when the script does not parse or a name is not fixed.
 */
export function rootCommands(script: string, parser: ShellParser, depth = 0): string[] {
  const parsed = parser.parse(script);
  if (!parsed.ok || depth > MAX_SHELL_DEPTH) return [];
  const roots: string[] = [];
  for (const command of parsed.commands) {
    if (command.type !== 'command') continue;
    const risk = commandRisk(command);
    if (risk.root === undefined) return [];
    roots.push(risk.root);
    for (const inner of risk.innerScripts) {
      const nested = rootCommands(inner, parser, depth + 1);
      if (nested.length === 0) return [];
      roots.push(...nested);
    }
  }
  return [...new Set(roots)];
}
