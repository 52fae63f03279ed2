import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import type { Logger } from '../logger.js';
import { PolicyEngine } from './policy-engine.js';
import { loadPolicyFiles, PolicyFileRef } from './policy-file.js';
import { ApprovalMode, type PolicyRule } from '../core/policy-rule.js';
import type { ShellParser } from './shell-syntax.js';

/**
 * The agent's `policy` option: the approval mode, rules in code, and gemini-cli TOML policy files (a file or a
 * directory of `*.toml`, optionally with a tier: `{ path, tier: 'admin' }`).
 */
export const PolicyOptions = z
  .object({
    mode: ApprovalMode.optional(),
    rules: z.array(z.unknown()).optional(),
    files: z.array(PolicyFileRef).optional(),
  })
  .strict();
/** The agent's `policy` option. */
export type PolicyOptions = Omit<z.infer<typeof PolicyOptions>, 'rules'> & { rules?: PolicyRule[] };

/**
 * Builds the engine for an agent's `policy` option: validates it (typed errors naming the rule, file and rule
 * index), loads the TOML files (relative to `cwd`), and adds gemini-cli's built-in rules.
 */
export async function createPolicyEngine(
  options: PolicyOptions = {},
  context: {
    cwd?: string;
    logger?: Logger;
    shellParser?: ShellParser | (() => Promise<ShellParser>);
  } = {},
): Promise<PolicyEngine> {
  const parsed = PolicyOptions.safeParse(options);
  if (!parsed.success) {
    const details = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'policy'}: ${i.message}`)
      .join('; ');
    throw new ConfigurationError(`Invalid policy option: ${details}. See docs/policy.md.`);
  }
  const sources = await loadPolicyFiles(parsed.data.files ?? [], {
    cwd: context.cwd,
    logger: context.logger,
  });
  return new PolicyEngine({
    mode: parsed.data.mode,
    rules: options.rules ?? [],
    sources,
    logger: context.logger,
    shellParser: context.shellParser,
  });
}
