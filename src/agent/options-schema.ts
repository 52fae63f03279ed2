import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import { mcpServersProblems, McpServersOption } from '../mcp/mcp-config.js';
import { PolicyOptions } from '../policy/policy-options.js';
import { ACTIVATE_SKILL_TOOL_NAME } from '../skills/activate-skill-tool.js';
import { levenshtein } from '../tools/closest-names.js';
import { isSdkHook } from '../hooks/hook.js';
import { TelemetryOptionsSchema } from '../telemetry/telemetry-options.js';
import { SUBAGENT_OPTION_SCHEMAS } from './subagent-options-schema.js';
import { validateFeatures } from './agent-features.js';
import { reservedBuiltinNames } from '../tools/builtin/create-builtin-tools.js';
import { validateSettingsOption } from './agent-settings.js';
import { describeValue, formatOptionIssues, valueAt, type OptionIssue } from './option-issues.js';
import { MODEL_SOURCE_AND_EXTENSION_OPTION_SCHEMAS } from './model-source-options.js';
import { ContextOptionsSchema } from './context-options.js';
import { BudgetSchema, PricesSchema } from '../context/budget.js';

/** Function names Gemini accepts in `functionDeclarations` (the `tool()` rule). */
const GEMINI_FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
/** An error map that words only type errors (`expected …`); other issues keep zod's message. */
const typeError =
  (what: string) =>
  (issue: { code?: string }): string | undefined =>
    issue.code === 'invalid_type' ? `expected ${what}` : undefined;
const fn = (what = 'a function') =>
  z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', {
    error: `expected ${what}`,
  });
const str = (what = 'a string') => z.string({ error: `expected ${what}` });
const nonEmptyStr = (what = 'a non-empty string') =>
  str().refine((s) => s.trim() !== '', { error: `expected ${what}` });
const bool = () => z.boolean({ error: 'expected true or false' });
const discoveryTiers = () =>
  z
    .union([bool(), z.object({ user: bool().optional(), workspace: bool().optional() }).strict()], {
      error: 'expected true, false or { user?: boolean, workspace?: boolean }',
    })
    .optional();
const positiveInt = () =>
  z
    .number({ error: 'expected a positive integer' })
    .int({ error: 'expected a positive integer' })
    .min(1, { error: 'expected a positive integer' });
const nonNegative = (what = 'a number of milliseconds ≥ 0') =>
  z
    .number({ error: `expected ${what}` })
    .min(0, { error: `expected ${what}` })
    .refine(Number.isFinite, { error: `expected ${what}` });
const positive = (what = 'a positive number of milliseconds') =>
  z
    .number({ error: `expected ${what}` })
    .gt(0, { error: `expected ${what}` })
    .refine(Number.isFinite, { error: `expected ${what}` });
const objectWith = (methods: readonly string[], what: string) =>
  z.custom<object>(
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      methods.every((m) => typeof (v as Record<string, unknown>)[m] === 'function'),
    { error: `expected ${what}` },
  );

/** The schemas {@link validateAgentOptions} checks against, built on its first call, not at import (goal P2). */
function buildOptionSchemas() {
  /** One entry of `tools`: a `tool()` definition or an `AgentTool`, checked for what the loop relies on. */
  const ToolEntry = z.custom<object>((v) => {
    if (typeof v !== 'object' || v === null) return false;
    const t = v as Record<string, unknown>;
    if (typeof t['name'] !== 'string') return false;
    if (typeof t['execute'] === 'function') return typeof t['validate'] === 'function';
    const schema = t['inputSchema'];
    const schemaLike =
      (typeof schema === 'object' && schema !== null) || typeof schema === 'function';
    return typeof t['action'] === 'function' && schemaLike;
  }, 'expected a tool made with tool() (or an AgentTool with name, validate and execute)');

  const SkillEntry = z
    .object(
      {
        type: z.enum(['dir', 'root'], { error: "expected 'dir' or 'root'" }),
        path: nonEmptyStr('a non-empty path'),
      },
      { error: typeError('a skill reference made with skillDir(path) or skillRoot(path)') },
    )
    .strict();

  const RetrySchema = z
    .object(
      {
        maxAttempts: positiveInt().optional(),
        initialDelayMs: nonNegative().optional(),
        maxDelayMs: nonNegative().optional(),
        connectionBudgetMs: nonNegative().optional(),
        onRetry: fn().optional(),
        sleep: fn().optional(),
        random: fn().optional(),
        now: fn().optional(),
        logger: objectWith(['debug', 'info', 'warn', 'error'], 'a logger').optional(),
      },
      { error: typeError('false or an object such as { maxAttempts: 3 }') },
    )
    .strict();

  const LimitsSchema = z
    .object(
      {
        maxTurns: positiveInt().optional(),
        toolTimeoutMs: positive().optional(),
        maxResponseBytes: positiveInt().optional(),
      },
      { error: typeError('an object such as { maxTurns: 20 }') },
    )
    .strict();

  const GenerationConfigSchema = z
    .looseObject(
      {
        temperature: z.number({ error: 'expected a number from 0 to 2' }).min(0).max(2).optional(),
        topP: z.number({ error: 'expected a number from 0 to 1' }).min(0).max(1).optional(),
        topK: z.number({ error: 'expected a positive number' }).gt(0).optional(),
        maxOutputTokens: positiveInt().optional(),
        candidateCount: positiveInt().optional(),
        seed: z.number({ error: 'expected an integer' }).int().optional(),
        stopSequences: z.array(str()).optional(),
        thinkingConfig: z.looseObject({}, { error: 'expected an object' }).optional(),
        systemInstruction: z
          .undefined({ error: 'is not allowed here: use the instructions option' })
          .optional(),
        tools: z.undefined({ error: 'is not allowed here: use the tools option' }).optional(),
        abortSignal: z
          .undefined({ error: 'is not allowed here: pass the signal to sendStream' })
          .optional(),
      },
      { error: typeError('an object of generation settings such as { temperature: 0.2 }') },
    )
    .optional();

  /**
   * The schema of every {@link GeminiCliAgentOptions} field. Unknown keys are errors (with a "did you mean"), as a
   * TypeScript object literal would be. Extend it when adding an option: `OPTION_SCHEMAS` is the list.
   */
  const OPTION_SCHEMAS = {
    instructions: z
      .union([str(), fn()], { error: 'expected a string or a function returning one' })
      .nullable()
      .optional(),
    systemPrompt: z
      .string({
        error: (i) =>
          `the systemPrompt option must be 'default', 'none' or your own prompt text (got ${describeValue(i.input)})`,
      })
      .optional(),
    tools: z.array(ToolEntry, { error: 'expected an array of tools made with tool()' }).optional(),
    builtinTools: z
      .union([z.literal('all'), z.literal('read-only'), z.literal(false), z.array(str())], {
        error: "expected 'all', 'read-only', false or an array of built-in tool names",
      })
      .optional(),
    skills: z
      .array(SkillEntry, { error: 'expected an array of skillDir(path) references' })
      .optional(),
    skillDiscovery: discoveryTiers(),
    trustWorkspace: bool().optional(),
    settings: z.unknown().optional(),
    memory: bool().optional(),
    sessionContext: bool().optional(),
    model: nonEmptyStr().optional(),
    cwd: nonEmptyStr('a directory path').optional(),
    includeDirectories: z
      .array(nonEmptyStr('a directory path'), { error: 'expected an array of directory paths' })
      .optional(),
    filesystem: fn('a function (base: SandboxFilesystem) => SandboxFilesystem').optional(),
    sandbox: z
      .object({
        maxReadBytes: positiveInt().optional(),
        maxOutputBytes: positiveInt().optional(),
        allowHardLinkReads: bool().optional(),
      })
      .strict()
      .optional(),
    mcpServers: McpServersOption.optional(),
    debug: bool().optional(),
    recordResponses: nonEmptyStr('a file path').optional(),
    fakeResponses: nonEmptyStr('a file path').optional(),
    ...MODEL_SOURCE_AND_EXTENSION_OPTION_SCHEMAS,
    apiKey: nonEmptyStr().optional(),
    baseUrl: str()
      .refine((u) => /^https?:\/\/[^\s]+$/i.test(u), { error: 'expected an http(s) URL' })
      .optional(),
    contentGenerator: objectWith(
      ['generateContentStream', 'generateContent', 'countTokens'],
      'a ContentGenerator (generateContentStream, generateContent, countTokens)',
    ).optional(),
    retry: z
      .union([z.literal(false), RetrySchema], {
        error: 'expected false or an object such as { maxAttempts: 3 }',
      })
      .optional(),
    generationConfig: GenerationConfigSchema,
    limits: LimitsSchema.optional(),
    context: ContextOptionsSchema.optional(),
    budget: BudgetSchema.optional(),
    prices: PricesSchema.optional(),
    policy: z.unknown().optional(),
    features: z.unknown().optional(),
    telemetry: TelemetryOptionsSchema.optional(),
    ...SUBAGENT_OPTION_SCHEMAS,
    hooks: z.array(z.custom<object>(isSdkHook, 'expected a hook made with hook()')).optional(),
    settingsHooks: bool().optional(),
    onHookRun: fn('a function (record) => void').optional(),
    onApproval: fn('a function (request) => decision').optional(),
    onAskUser: fn('a function (request) => answers').optional(),
    approvals: z.enum(['ask', 'pause'], { error: "expected 'ask' or 'pause'" }).optional(),
    approvalTtlMs: positive().optional(),
    sessionStore: objectWith(
      ['acquireLease', 'create', 'append', 'load', 'list', 'delete'],
      'a SessionStore (acquireLease, create, append, load, list, delete)',
    ).optional(),
    persist: bool().optional(),
    logger: objectWith(['debug', 'info', 'warn', 'error'], 'a logger (debug, info, warn, error)')
      .nullable()
      .optional(),
  } satisfies Record<string, z.ZodType>;

  const AgentOptionsSchema = z.object(OPTION_SCHEMAS);
  /** The known keys of the nested option objects, for "did you mean" on their unknown keys. */
  const NESTED_SHAPES: Record<string, Record<string, unknown>> = {
    retry: RetrySchema.shape,
    limits: LimitsSchema.shape,
    context: ContextOptionsSchema.shape,
    budget: BudgetSchema.shape,
  };
  return { AgentOptionsSchema, NESTED_SHAPES, OPTION_NAMES: Object.keys(OPTION_SCHEMAS) };
}
let optionSchemas: ReturnType<typeof buildOptionSchemas> | undefined;
const schemas = () => (optionSchemas ??= buildOptionSchemas());

function suggestion(key: string, known: readonly string[] = schemas().OPTION_NAMES): string {
  const best = known
    .map((name) => ({ name, d: levenshtein(key, name) }))
    .sort((a, b) => a.d - b.d)[0];
  return best !== undefined && best.d <= Math.max(2, Math.floor(key.length / 3))
    ? ` (did you mean "${best.name}"?)`
    : '';
}

function checkTools(options: Record<string, unknown>, issues: OptionIssue[]): void {
  const tools = options['tools'];
  if (!Array.isArray(tools)) return;
  const builtin = reservedBuiltinNames(options['builtinTools'], options['onAskUser'] !== undefined);
  const seen = new Map<string, number>();
  tools.forEach((t: unknown, i) => {
    const name = (t as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') return;
    const path = `tools[${i}].name`;
    if (!GEMINI_FUNCTION_NAME.test(name)) {
      issues.push({
        path,
        message: `${JSON.stringify(name)} is not a name Gemini accepts: use 1-64 letters, digits, "_", ".", ":" or "-", starting with a letter or "_"`,
      });
    }
    const first = seen.get(name);
    if (first !== undefined) {
      issues.push({
        path,
        message: `"${name}" is also the name of tools[${first}]: tool names must be unique`,
      });
    } else seen.set(name, i);
    if (name === ACTIVATE_SKILL_TOOL_NAME || builtin.has(name)) {
      issues.push({
        path,
        message: `"${name}" is the name of a built-in tool: rename the tool, or leave the built-in out with builtinTools`,
      });
    }
  });
}

function checkDirectory(path: string, value: unknown, cwd: string, issues: OptionIssue[]): void {
  if (typeof value !== 'string' || value.trim() === '') return;
  const absolute = resolve(cwd, value);
  let isDir: boolean;
  try {
    isDir = statSync(absolute).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    issues.push({
      path,
      message: `${JSON.stringify(value)} is not an existing directory${absolute !== value ? ` (${absolute})` : ''}`,
    });
  }
}

function checkSettings(settings: unknown, issues: OptionIssue[]): void {
  try {
    validateSettingsOption(settings);
  } catch (error) {
    issues.push({ path: 'settings', message: (error as Error).message });
  }
}

/** The `features` option, checked part by part (see `validateFeatures`). */
function checkFeatures(features: unknown, issues: OptionIssue[]): void {
  try {
    validateFeatures(features);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    issues.push({ path: 'features', message: error.message });
  }
}

function checkPolicy(policy: unknown, issues: OptionIssue[]): void {
  if (policy === undefined) return;
  const parsed = PolicyOptions.safeParse(policy);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    issues.push({
      path: ['policy', ...issue.path.map(String)].join('.'),
      message: issue.message,
    });
  }
}

/**
 * Validates agent options at construction, so a wrong value fails at once with the field, what it got and what it
 * expects (`model: expected a non-empty string, got 123`), instead of failing later inside a session.
 *
 * Checks every option's type and range, unknown keys (a misspelt `modle`), tool entries (`null`, duplicate names,
 * names Gemini rejects, names of built-in tools), that `cwd` and `includeDirectories` exist, and combinations
 * (`persist: false` with a `sessionStore`). Policy rules are checked in depth when the agent builds its policy.
 *
 * @throws ConfigurationError listing every problem found.
 */
export function validateAgentOptions(options: unknown): void {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new ConfigurationError(
      `GeminiCliAgent options: expected an object, got ${describeValue(options)}.`,
    );
  }
  const record = options as Record<string, unknown>;
  const { AgentOptionsSchema, NESTED_SHAPES, OPTION_NAMES } = schemas();
  const issues: OptionIssue[] = [];
  for (const key of Object.keys(record)) {
    if (!OPTION_NAMES.includes(key) && record[key] !== undefined) {
      issues.push({ path: key, message: `unknown option${suggestion(key)}` });
    }
  }
  const parsed = AgentOptionsSchema.safeParse(record);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
        .join('.')
        .replace(/\.\[/g, '[');
      if (issue.code === 'unrecognized_keys') {
        const known = Object.keys(NESTED_SHAPES[path] ?? {});
        for (const key of issue.keys) {
          issues.push({
            path: `${path}.${key}`,
            message: `unknown option${suggestion(key, known)}`,
          });
        }
        continue;
      }
      issues.push({ path, message: issue.message, value: valueAt(record, issue.path) });
    }
  }
  checkTools(record, issues);
  issues.push(...mcpServersProblems(record['mcpServers']));
  checkPolicy(record['policy'], issues);
  checkFeatures(record['features'], issues);
  checkSettings(record['settings'], issues);
  const cwd = typeof record['cwd'] === 'string' ? record['cwd'] : process.cwd();
  checkDirectory('cwd', record['cwd'], process.cwd(), issues);
  const include = record['includeDirectories'];
  if (Array.isArray(include)) {
    include.forEach((dir: unknown, i) =>
      checkDirectory(`includeDirectories[${i}]`, dir, cwd, issues),
    );
  }
  if (record['persist'] === false && record['sessionStore'] !== undefined) {
    issues.push({
      path: 'persist',
      message: 'false keeps sessions in memory, but a sessionStore was given too: pass one of them',
    });
  }
  if (issues.length === 0) return;
  // The reference SDK's message for bad instructions comes first, so code matching it keeps working.
  const reference = issues.some((i) => i.path === 'instructions')
    ? 'Instructions must be a string or a function. '
    : '';
  throw new ConfigurationError(`${reference}${formatOptionIssues(issues)}`);
}
