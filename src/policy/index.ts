/**
 * `gemini-agent-sdk/policy`: the policy engine on its own, without an agent — to test a policy file in CI, or to
 * decide calls in your own integration — and `argsHash`, the hash `resolveApprovals` decisions may carry.
 *
 * Every export is listed here by name; `src/index.test.ts` pins the list.
 */
export { PolicyEngine } from './policy-engine.js';
export type {
  PolicyCall,
  PolicyCheckContext,
  PolicyCheckResult,
  PolicyExplanation,
  PolicyRuleInfo,
  PolicyEngineOptions,
} from './policy-engine.js';
export { createPolicyEngine } from './policy-options.js';
export type { PolicyOptions } from './policy-options.js';
export { loadPolicyFiles, parsePolicyToml } from './policy-file.js';
export type { PolicyFileRef } from './policy-file.js';
export type { PolicyRule, PolicySource, RuleOrigin, PolicyTier } from '../core/policy-rule.js';
export { PolicyRuleError } from './policy-errors.js';
export { argsHash } from './stable-stringify.js';
export type { ShellParser } from './shell-syntax.js';
