import { z } from 'zod';

/** What the policy decides about one call: run it, refuse it, or ask a human. */
export const PolicyDecision = z.enum(['allow', 'deny', 'ask_user']);
/** What the policy decides about one call: run it, refuse it, or ask a human. */
export type PolicyDecision = z.infer<typeof PolicyDecision>;

/**
 * Approval modes, least to most permissive: `plan` (read-only), `default` (reads run, edits and shell ask),
 * `auto_edit` (edits run too), `yolo` (everything runs except what a deny rule catches).
 */
export const ApprovalMode = z.enum(['plan', 'default', 'auto_edit', 'yolo']);
/** One of the four approval modes. */
export type ApprovalMode = z.infer<typeof ApprovalMode>;

/** The modes in permissiveness order (gemini-cli: plan < default < autoEdit < yolo). */
export const MODES_BY_PERMISSIVENESS: readonly ApprovalMode[] = [
  'plan',
  'default',
  'auto_edit',
  'yolo',
];

/** A mode as written in a rule: ours (`auto_edit`) or gemini-cli's TOML spelling (`autoEdit`). */
export const ModeName = z
  .enum(['plan', 'default', 'auto_edit', 'autoEdit', 'yolo'])
  .transform((m): ApprovalMode => (m === 'autoEdit' ? 'auto_edit' : m));

/**
 * Where a rule comes from. The final priority is `tier + priority / 1000`, as in gemini-cli: built-in defaults 1,
 * extensions 2, workspace 3, user 4 (rules passed in code and user TOML files), admin 5.
 */
export const PolicyTier = z.enum(['default', 'extension', 'workspace', 'user', 'admin']);
/** Where a rule comes from (see {@link PolicyTier}). */
export type PolicyTier = z.infer<typeof PolicyTier>;

/** Base number of each tier. */
export const TIER_BASE: Readonly<Record<PolicyTier, number>> = {
  default: 1,
  extension: 2,
  workspace: 3,
  user: 4,
  admin: 5,
};

const nonEmpty = (what: string) => z.string().min(1, `${what} must not be empty`);
const stringOrList = (what: string) =>
  z.union([nonEmpty(what), z.array(nonEmpty(what)).min(1, `${what} must not be an empty list`)]);

/**
 * One policy rule, as passed in code (`policy.rules`). The same fields as a gemini-cli TOML `[[rule]]`:
 *
 * - `toolName`: exact name, `*` for all, `*` wildcards inside (`mcp_*`, `mcp_github_*`); a list makes one rule
 *   per name.
 * - `mcpName`: MCP server; the rule's tool name becomes `mcp_<mcpName>_<toolName>`.
 * - `argsPattern`: regex tested against the stable-stringified arguments (keys sorted, each top-level
 *   `"key":value` wrapped in NUL characters).
 * - `commandPrefix` / `commandRegex`: `run_shell_command` only; match the start of the command.
 * - `decision`, `priority` (0–999 inside the rule's tier; default 0), `modes`, `denyMessage`.
 * - `kinds`: only tools of these kinds (`read`, `edit`, `execute`, …) — an addition to gemini-cli's format.
 */
export const PolicyRule = z
  .object({
    name: z.string().optional(),
    toolName: stringOrList('toolName'),
    mcpName: nonEmpty('mcpName').optional(),
    subagent: nonEmpty('subagent').optional(),
    argsPattern: nonEmpty('argsPattern').optional(),
    commandPrefix: stringOrList('commandPrefix').optional(),
    commandRegex: nonEmpty('commandRegex').optional(),
    decision: PolicyDecision,
    priority: z
      .number()
      .int('priority must be an integer')
      .min(0, 'priority must be between 0 and 999')
      .max(999, 'priority must be between 0 and 999')
      .optional(),
    modes: z.array(ModeName).optional(),
    interactive: z.boolean().optional(),
    toolAnnotations: z.record(z.string(), z.unknown()).optional(),
    allowRedirection: z.boolean().optional(),
    denyMessage: z.string().optional(),
    kinds: z.array(nonEmpty('kind')).min(1, 'kinds must not be an empty list').optional(),
  })
  .strict();
/** One policy rule, as passed in code (see the schema's documentation). */
export type PolicyRule = z.input<typeof PolicyRule>;
/** A rule after schema validation (modes normalised to our spelling). */
export type ParsedPolicyRule = z.output<typeof PolicyRule>;

/** Where a rule comes from and how to weigh it. */
export interface RuleOrigin {
  tier: PolicyTier;
  /** Source label (file path, `Code`, …). */
  source: string;
  /** Overrides `tier + priority / 1000` (session "always allow" rules use 3.95). */
  finalPriority?: number;
  /** Where the rule sits in its file / list, for error messages. */
  ruleIndex?: number;
  /** The file the rule came from, for error messages. */
  file?: string;
}

/**
 * A list of rules with their origin: the rules of one TOML file, of the `policy.rules` option, or the ones a feature
 * brings (its `policy` part).
 */
export interface PolicySource {
  origin: RuleOrigin;
  rules: PolicyRule[];
}

/** Source label of the rules the SDK adds for what the developer passed in code (`tools`, `skills` options). */
export const SDK_DEFAULT_SOURCE = 'SDK default';

/** The longest regex a rule may carry (`argsPattern`, `commandRegex`), as gemini-cli. */
export const MAX_RULE_REGEX_LENGTH = 2048;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * An `argsPattern` that matches calls whose top-level argument `key` is exactly `value`: arguments are matched as
 * stable-stringified JSON with each top-level `"key":value` wrapped in NUL characters.
 */
export function exactArgPattern(key: string, value: unknown): string {
  return `\\x00${escapeRegex(`${JSON.stringify(key)}:${JSON.stringify(value)}`)}\\x00`;
}

/** The rule tool name covering one MCP server's tools (`*`: every server's). */
export function mcpToolPattern(server: string): string {
  return server === '*' ? 'mcp_*' : `mcp_${server}_*`;
}

/**
 * The rule allowing a trusted MCP server's tools (`trust: true`; gemini-cli's "MCP Trusted" rule, 4.2 in the user
 * tier, not in plan mode), scoped to one subagent when `subagent` is given.
 */
export function trustedMcpServerRule(server: string, subagent?: string): PolicyRule {
  return {
    toolName: mcpToolPattern(server),
    mcpName: server,
    ...(subagent === undefined ? {} : { subagent }),
    decision: 'allow',
    priority: 200,
    modes: ['default', 'auto_edit', 'yolo'],
  };
}
