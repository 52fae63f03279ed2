import { readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { lazyRequire } from '../lazy-require.js';
import type * as Toml from 'smol-toml';
import { z } from 'zod';
import { silentLogger, type Logger } from '../logger.js';
import { compileRules } from './compiled-rule.js';
import { PolicyRuleError } from './policy-errors.js';
import {
  ModeName,
  PolicyDecision,
  PolicyTier,
  type PolicyRule,
  type PolicySource,
  type RuleOrigin,
} from '../core/policy-rule.js';

/** A policy file or directory, with the tier its rules belong to (default `user`). */
export const PolicyFileRef = z.union([
  z.string().min(1),
  z.object({ path: z.string().min(1), tier: PolicyTier.optional() }).strict(),
]);
/** A policy file or directory, with the tier its rules belong to (default `user`). */
export type PolicyFileRef = z.infer<typeof PolicyFileRef>;

const stringOrList = z.union([z.string(), z.array(z.string())]);

/** One gemini-cli `[[rule]]` table (deprecated snake_case aliases accepted; `priority` is required). */
export const TomlPolicyRule = z
  .object({
    name: z.string().optional(),
    toolName: stringOrList,
    mcpName: z.string().optional(),
    subagent: z.string().optional(),
    argsPattern: z.string().optional(),
    commandPrefix: stringOrList.optional(),
    commandRegex: z.string().optional(),
    decision: PolicyDecision,
    priority: z.number().int('priority must be an integer').min(0).max(999),
    modes: z.array(ModeName).optional(),
    interactive: z.boolean().optional(),
    toolAnnotations: z.record(z.string(), z.unknown()).optional(),
    allowRedirection: z.boolean().optional(),
    allow_redirection: z.boolean().optional(),
    denyMessage: z.string().optional(),
    deny_message: z.string().optional(),
    kinds: z.array(z.string()).optional(),
    safety_checker: z.unknown().optional(),
  })
  .strict();
/** One gemini-cli `[[rule]]` table. */
export type TomlPolicyRule = z.infer<typeof TomlPolicyRule>;

const TomlPolicyFile = z.looseObject({
  rule: z
    .array(z.record(z.string(), z.unknown()), 'rule must be an array of tables ([[rule]])')
    .optional(),
  safety_checker: z.array(z.unknown()).optional(),
});

/**
 * The `smol-toml` parser, loaded on the first policy file parsed rather than when the SDK is imported. `require`
 * (its CommonJS build) keeps {@link parsePolicyToml} synchronous; Node caches the module.
 */
function loadToml(): typeof Toml {
  return lazyRequire<typeof Toml>('smol-toml');
}

function tierLabel(tier: PolicyTier): string {
  return tier.charAt(0).toUpperCase() + tier.slice(1);
}

function toPolicyRule(table: TomlPolicyRule): PolicyRule {
  const {
    allow_redirection: allowRedirectionAlias,
    deny_message: denyMessageAlias,
    safety_checker: _safetyChecker,
    allowRedirection,
    denyMessage,
    ...rest
  } = table;
  const rule: PolicyRule = { ...rest };
  const redirection = allowRedirection ?? allowRedirectionAlias;
  if (redirection !== undefined) rule.allowRedirection = redirection;
  const message = denyMessage ?? denyMessageAlias;
  if (message !== undefined) rule.denyMessage = message;
  return rule;
}

/**
 * Parses one gemini-cli policy file's text: every `[[rule]]` is validated and compiled (bad fields, bad regexes,
 * `commandPrefix` misuse all throw a {@link PolicyRuleError} naming the file and the rule's 1-based index).
 * `[[safety_checker]]` tables and other top-level keys are ignored with a warning, as gemini-cli ignores keys it
 * does not know.
 */
export function parsePolicyToml(
  text: string,
  file: string,
  options: { tier?: PolicyTier; logger?: Logger } = {},
): PolicySource {
  const tier = options.tier ?? 'user';
  const logger = options.logger ?? silentLogger;
  let data: unknown;
  try {
    data = loadToml().parse(text);
  } catch (error) {
    throw new PolicyRuleError(
      `Invalid TOML in policy file ${file}: ${(error as Error).message}`,
      { file },
      { cause: error },
    );
  }
  const top = TomlPolicyFile.safeParse(data);
  if (!top.success) {
    const details = top.error.issues
      .map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`)
      .join('; ');
    throw new PolicyRuleError(`Invalid policy file ${file}: ${details}.`, { file });
  }
  for (const key of Object.keys(top.data)) {
    if (key === 'rule') continue;
    logger.warn(`Policy file ${file}: "${key}" is not supported and was ignored.`, { file, key });
  }
  const origin: RuleOrigin = { tier, source: `${tierLabel(tier)}: ${file}`, file };
  const rules = (top.data.rule ?? []).map((table, ruleIndex) => {
    const parsed = TomlPolicyRule.safeParse(table);
    if (!parsed.success) {
      const details = parsed.error.issues
        .map((i) => `${i.path.length ? i.path.join('.') : '(rule)'}: ${i.message}`)
        .join('; ');
      const name = typeof table.name === 'string' ? ` ("${table.name}")` : '';
      throw new PolicyRuleError(`Invalid rule #${ruleIndex + 1}${name} in ${file}: ${details}.`, {
        file,
        ruleIndex,
      });
    }
    if (parsed.data.safety_checker !== undefined) {
      logger.warn(
        `Policy file ${file}: rule #${ruleIndex + 1} has a safety_checker, which is not supported.`,
        {
          file,
          ruleIndex,
        },
      );
    }
    return toPolicyRule(parsed.data);
  });
  // Compile once now so regex and shell-sugar errors surface at load time, naming the rule.
  rules.forEach((rule, ruleIndex) => compileRules([rule], { ...origin, ruleIndex }));
  return { origin, rules };
}

async function tomlFilesOf(target: string): Promise<string[]> {
  let info;
  try {
    info = await stat(target);
  } catch (error) {
    throw new PolicyRuleError(
      `Policy file or directory not found: ${target}. Check the path in policy.files.`,
      {
        file: target,
      },
      { cause: error },
    );
  }
  if (!info.isDirectory()) return [target];
  const entries = await readdir(target, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.toml'))
    .map((entry) => path.join(target, entry.name))
    .sort();
}

/**
 * Loads policy files: each reference is a `.toml` file or a directory whose `*.toml` files (not recursive) are
 * read in name order. Relative paths resolve against `cwd`; a leading `~/` is the home directory.
 */
export async function loadPolicyFiles(
  refs: readonly PolicyFileRef[],
  options: { cwd?: string; logger?: Logger } = {},
): Promise<PolicySource[]> {
  const sources: PolicySource[] = [];
  for (const ref of refs) {
    const { path: target, tier } = typeof ref === 'string' ? { path: ref, tier: undefined } : ref;
    const expanded =
      target === '~' || target.startsWith('~/') ? path.join(homedir(), target.slice(1)) : target;
    const absolute = path.resolve(options.cwd ?? process.cwd(), expanded);
    for (const file of await tomlFilesOf(absolute)) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new PolicyRuleError(
          `Cannot read policy file ${file}: ${(error as Error).message}`,
          { file },
          {
            cause: error,
          },
        );
      }
      sources.push(parsePolicyToml(text, file, { tier: tier ?? 'user', logger: options.logger }));
    }
  }
  return sources;
}
