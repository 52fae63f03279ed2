import { compileRules, type CompiledRule } from './compiled-rule.js';
import type { PolicyRule } from '../core/policy-rule.js';

/**
 * Final priority of "always allow" rules: gemini-cli's session-scoped value (workspace tier + .950), so they beat
 * the built-in defaults but never a user or admin rule.
 */
export const SESSION_RULE_PRIORITY = 3.95;

/** Source label of session rules. */
export const SESSION_RULE_SOURCE = 'Session (always allow)';

/**
 * Rules one session added by answering `allow_always`. Plain {@link PolicyRule}s in, so the session can persist
 * them (`toJSON()`) and restore them on resume (`new SessionRules(saved)`).
 */
export class SessionRules {
  private readonly raw: PolicyRule[] = [];
  private compiled: CompiledRule[] = [];
  private revision = 0;

  constructor(rules: readonly PolicyRule[] = []) {
    for (const rule of rules) this.add(rule);
  }

  /** Adds a rule (validated; a bad rule throws a PolicyRuleError). Duplicates are ignored. */
  add(rule: PolicyRule): void {
    const key = JSON.stringify(rule);
    if (this.raw.some((existing) => JSON.stringify(existing) === key)) return;
    const compiled = compileRules(
      [rule],
      { tier: 'workspace', source: SESSION_RULE_SOURCE, finalPriority: SESSION_RULE_PRIORITY },
      1_000_000 + this.compiled.length,
    );
    this.raw.push(rule);
    this.compiled = [...this.compiled, ...compiled];
    this.revision += 1;
  }

  /** The compiled rules, for the engine. */
  get rules(): readonly CompiledRule[] {
    return this.compiled;
  }

  /** Changes every time a rule is added (lets the engine cache its merged rule list). */
  get version(): number {
    return this.revision;
  }

  /** The rules as added, for persisting with the session. */
  toJSON(): PolicyRule[] {
    return this.raw.map((rule) => ({ ...rule }));
  }
}
