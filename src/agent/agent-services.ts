import { ConfigurationError } from '../errors.js';
import { createStderrLogger, silentLogger, type Logger } from '../logger.js';
import type { ContentGenerator } from '../model/content-generator.js';
import { AuthCache } from '../model/auth/auth-cache.js';
import { createContentGenerator } from '../model/create-content-generator.js';
import { authSettingsOf } from './agent-auth.js';
import { resolveModel } from '../model/models.js';
import { DEFAULT_RETRY } from '../model/retry.js';
import type { RetryEventInfo } from '../events.js';
import type { LoopLimits, StreamRetrySettings } from '../loop/loop-types.js';
import type { ToolGate } from '../tools/tool-gate.js';
import { sdkToolToAgentTool, isAgentTool } from '../tools/sdk-tool.js';
import type { CommandCheck } from '../workspace/workspace-shell.js';
import { staticToolProvider, type ToolProvider } from '../tools/tool-provider.js';
import { createWorkspace, type Workspace } from '../workspace/workspace.js';
import { createBuiltinTools } from '../tools/builtin/create-builtin-tools.js';
import { createSkillsFeature, type SkillsFeature } from '../skills/skills-feature.js';
import type { SkillReference } from '../skills/skill-reference.js';
import { ACTIVATE_SKILL_TOOL_NAME } from '../skills/activate-skill-tool.js';
import { createAgentPolicy, type AgentPolicy } from './agent-policy.js';
import type { SessionPolicy } from './session-policy.js';
import type { GeminiCliAgentOptions } from './agent-options.js';
import { validateInstructions, type SystemInstructions } from './instructions.js';
import type { StoreSessionPersistence } from '../sessions/session-persistence.js';
import { createAgentPersistence, validateApprovalTtl } from './agent-persistence.js';
import { OpenSessions } from './open-sessions.js';
import {
  validateSystemPrompt,
  type SystemPromptOption,
  type SystemSectionProvider,
} from './system-prompt.js';
import type { LoadedSettings } from '../settings/load-settings.js';
import { settingsPolicySources, toolNamesOf } from '../policy/settings-rules.js';
import type { AgentTool } from '../core/agent-tool.js';
import {
  loadAgentSettings,
  settingsIncludeDirectories,
  settingsMaxTurns,
  settingsPolicyFiles,
} from './agent-settings.js';

/** Default `limits.maxTurns`. */
export const DEFAULT_MAX_TURNS = 100;

/** What a {@link SessionInitializer} gets while a session initialises. */
export interface SessionInitContext {
  sessionId: string;
  workspace: Workspace;
  logger: Logger;
  signal?: AbortSignal;
}

/** Runs once per session during `initialize()` (e.g. loading skills, connecting MCP servers). */
export type SessionInitializer = (init: SessionInitContext) => Promise<void> | void;

/** Per-session hooks the model factory wires into the model. */
export interface ModelHooks {
  /** The session the model is for (the Code Assist API receives it as `session_id`). */
  sessionId?: string;
  /** Called before each retry backoff of a connection (the session emits it as a `retry` event). */
  onRetry(info: RetryEventInfo): void;
}

/**
 * Everything an agent's sessions are built from. This is the one place features plug in: add a tool provider,
 * a system section, a gate, a store or an initializer here — the loop's body never changes.
 */
export interface AgentServices {
  instructions: SystemInstructions | undefined;
  /** The `systemPrompt` option: which base prompt surrounds the sections and the instructions. */
  systemPrompt: SystemPromptOption;
  /** The model id sent in requests. */
  modelName: string;
  /** Builds the model for one session (replay restarts at line 1 for each session, as in gemini-cli). */
  createModel(hooks: ModelHooks): Promise<ContentGenerator>;
  /** Evaluated before every model call, in order; their tools are concatenated. */
  toolProviders: ToolProvider[];
  /** Evaluated before every model call, in order; their sections precede the instructions. */
  sectionProviders: SystemSectionProvider[];
  /** The policy engine (built once), the approval handler and the approvals mode. */
  policy: AgentPolicy;
  /** Policy / approvals, asked before each tool call: per session (its mode, "always allow" rules and log). */
  createGate(policy: SessionPolicy): ToolGate;
  /** Where sessions are stored (`sessionStore` / `persist` options; default gemini-cli's JSONL files). */
  persistence: StoreSessionPersistence;
  /** Paused approvals older than this (ms) are denied when resolved (`approvalTtlMs`). */
  approvalTtlMs: number | undefined;
  /** The agent's sessions that hold a lease, by id (`resumeSession` takes an idle one's lease over). */
  openSessions: OpenSessions;
  /** Builds a session's workspace (`ctx.fs`, `ctx.shell`); `commandCheck` decides `ctx.shell` commands. */
  createWorkspace(commandCheck?: CommandCheck): Workspace;
  /** Run once per session during `initialize()`, in order. */
  initializers: SessionInitializer[];
  limits: LoopLimits;
  /** Mid-stream re-sends of a model call (`retry` option; `retry: false` turns them off). */
  streamRetry: StreamRetrySettings;
  generationConfig: GeminiCliAgentOptions['generationConfig'];
  logger: Logger;
  /** The sessions' working directory (as given, or `process.cwd()`). */
  cwd: string;
  /** Skills: discovery, the `activate_skill` tool and the `<available_skills>` section. */
  skills: SkillsFeature;
  /** gemini-cli's settings files, merged, and the folder trust (features read their keys here). */
  settings: LoadedSettings;
}

/**
 * Turns {@link GeminiCliAgentOptions} into {@link AgentServices}, validating the options.
 *
 * @throws ConfigurationError for bad options (e.g. `Instructions must be a string or a function.`).
 */
export function createAgentServices(options: GeminiCliAgentOptions): AgentServices {
  const instructions = validateInstructions(options.instructions);
  const logger = options.logger ?? (options.debug ? createStderrLogger() : silentLogger);
  const cwd = options.cwd ?? process.cwd();
  const wrapFilesystem = options.filesystem;
  const tools = options.tools ?? [];
  if (!Array.isArray(tools)) {
    throw new ConfigurationError('The tools option must be an array of tools made with tool().');
  }
  const settings = loadAgentSettings(options.settings, {
    cwd,
    trustWorkspace: options.trustWorkspace,
    logger,
  });
  const merged = settings.merged;
  const authCache = new AuthCache();
  const skills = createSkillsFeature({
    cwd,
    references: validateSkillReferences(options.skills),
    ...(options.skillDiscovery === undefined ? {} : { discovery: options.skillDiscovery }),
    trusted: settings.trust.trusted,
    logger,
  });
  const builtinTools = filterBuiltinTools(
    createBuiltinTools(options.builtinTools ?? 'all'),
    merged.tools?.core,
    merged.tools?.exclude,
  );
  const customTools = tools.map((t) => (isAgentTool(t) ? t : sdkToolToAgentTool(t)));
  const defaultMode = merged.general?.defaultApprovalMode;
  const policy = createAgentPolicy({
    policy:
      options.policy?.mode === undefined && defaultMode !== undefined && defaultMode !== 'default'
        ? { ...options.policy, mode: defaultMode }
        : options.policy,
    settingsSources: settingsPolicySources(merged, {
      customToolNames: customTools.map((t) => t.name),
    }),
    settingsFiles: settingsPolicyFiles(options.settings, merged, cwd, logger),
    onApproval: options.onApproval,
    approvals: options.approvals,
    cwd,
    logger,
    customToolNames: customTools.map((t) => t.name),
    toolKinds: new Map<string, string>([
      ...builtinTools.map((t): [string, string] => [t.name, t.kind]),
      ...customTools.map((t): [string, string] => [t.name, t.kind]),
      [ACTIVATE_SKILL_TOOL_NAME, 'other'],
    ]),
    loadSkills: (signal) => skills.load(signal),
    skillApprovalDetails: (args) => skills.approvalDetails(args),
  });
  return {
    instructions,
    systemPrompt: validateSystemPrompt(options.systemPrompt),
    modelName: resolveModel(options.model ?? merged.model?.name),
    createModel: (hooks) => createModelFor(options, logger, hooks, { settings, authCache }),
    toolProviders: [
      staticToolProvider(builtinTools),
      staticToolProvider(customTools),
      (ctx) => skills.toolProvider(ctx),
    ],
    sectionProviders: [(ctx) => skills.sectionProvider(ctx)],
    policy,
    createGate: (sessionPolicy) => sessionPolicy.gate,
    persistence: createAgentPersistence(options, logger),
    approvalTtlMs: validateApprovalTtl(options.approvalTtlMs),
    openSessions: new OpenSessions(),
    createWorkspace: (commandCheck) =>
      withFilesystem(
        createWorkspace({
          cwd,
          includeDirectories: [
            ...settingsIncludeDirectories(merged, cwd),
            ...(options.includeDirectories ?? []),
          ],
          logger,
          ...(commandCheck ? { commandCheck } : {}),
          ...(options.sandbox ?? {}),
        }),
        wrapFilesystem,
      ),
    initializers: [(init) => skills.initializeSession(init)],
    limits: validateLimits({
      ...options.limits,
      maxTurns: options.limits?.maxTurns ?? settingsMaxTurns(merged),
    }),
    streamRetry: streamRetryFrom(options.retry),
    generationConfig: options.generationConfig,
    logger,
    cwd,
    skills,
    settings,
  };
}

/**
 * gemini-cli registers a built-in tool only when `tools.core` (if set) names it and `tools.exclude` does not.
 */
function filterBuiltinTools(
  tools: AgentTool[],
  core: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): AgentTool[] {
  const allowed = core === undefined ? undefined : toolNamesOf(core);
  const excluded = toolNamesOf(exclude ?? []);
  return tools.filter(
    (t) => (allowed === undefined || allowed.has(t.name)) && !excluded.has(t.name),
  );
}

/** The workspace with `fs` replaced by `wrap(workspace.fs)` (the other members stay live). */
function withFilesystem(
  workspace: Workspace,
  wrap: GeminiCliAgentOptions['filesystem'],
): Workspace {
  if (wrap === undefined) return workspace;
  const fs = wrap(workspace.fs);
  return Object.create(workspace, { fs: { value: fs, enumerable: true } }) as Workspace;
}

function validateSkillReferences(skills: GeminiCliAgentOptions['skills']): SkillReference[] {
  if (skills === undefined) return [];
  const valid =
    Array.isArray(skills) &&
    skills.every(
      (ref: unknown) =>
        typeof ref === 'object' &&
        ref !== null &&
        ((ref as { type?: unknown }).type === 'dir' ||
          (ref as { type?: unknown }).type === 'root') &&
        typeof (ref as { path?: unknown }).path === 'string',
    );
  if (!valid) {
    throw new ConfigurationError(
      'The skills option must be an array of skill references made with skillDir(path).',
    );
  }
  return [...skills];
}

function createModelFor(
  options: GeminiCliAgentOptions,
  logger: Logger,
  hooks: ModelHooks,
  shared: { settings: LoadedSettings; authCache: AuthCache },
): Promise<ContentGenerator> {
  const retry = options.retry;
  return createContentGenerator({
    ...(options.fakeResponses === undefined ? {} : { fakeResponses: options.fakeResponses }),
    ...(options.recordResponses === undefined ? {} : { recordResponses: options.recordResponses }),
    ...(options.authType === undefined ? {} : { authType: options.authType }),
    authSettings: authSettingsOf(shared.settings),
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.contentGenerator === undefined
      ? {}
      : { contentGenerator: options.contentGenerator }),
    ...(hooks.sessionId === undefined ? {} : { sessionId: hooks.sessionId }),
    model: resolveModel(options.model ?? shared.settings.merged.model?.name),
    authCache: shared.authCache,
    logger,
    ...(options.limits?.maxResponseBytes === undefined
      ? {}
      : { maxResponseBytes: options.limits.maxResponseBytes }),
    retry:
      retry === false
        ? false
        : {
            ...retry,
            onRetry: (info) => {
              const { error: _error, ...failure } = info;
              hooks.onRetry({ ...failure, phase: 'connect' });
              retry?.onRetry?.(info);
            },
          },
  });
}

function streamRetryFrom(retry: GeminiCliAgentOptions['retry']): StreamRetrySettings {
  if (retry === false) return { maxAttempts: 1 };
  return {
    maxAttempts: retry?.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
    ...(retry?.sleep === undefined ? {} : { sleep: retry.sleep }),
  };
}

function validateLimits(limits: GeminiCliAgentOptions['limits']): LoopLimits {
  const maxTurns = limits?.maxTurns ?? DEFAULT_MAX_TURNS;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    throw new ConfigurationError(
      `limits.maxTurns must be a positive integer (got ${String(maxTurns)}).`,
    );
  }
  const toolTimeoutMs = limits?.toolTimeoutMs;
  if (toolTimeoutMs !== undefined && !(typeof toolTimeoutMs === 'number' && toolTimeoutMs > 0)) {
    throw new ConfigurationError(
      `limits.toolTimeoutMs must be a positive number of milliseconds (got ${String(toolTimeoutMs)}).`,
    );
  }
  return {
    maxTurns,
    ...(toolTimeoutMs === undefined ? {} : { toolTimeoutMs }),
    ...(limits?.maxResponseBytes === undefined
      ? {}
      : { maxResponseBytes: limits.maxResponseBytes }),
  };
}
