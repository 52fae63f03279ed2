import type { Feature } from '../core/feature.js';
import { ConfigurationError } from '../errors.js';
import { createStderrLogger, silentLogger, type Logger } from '../logger.js';
import { AuthCache } from '../model/auth/auth-cache.js';
import type { ContentGenerator } from '../model/content-generator.js';
import { createContentGenerator, geminiModelName } from '../model/create-content-generator.js';
import { agentModel, authSettingsOf } from './agent-auth.js';
import { DEFAULT_RETRY } from '../model/retry.js';
import type { RetryEventInfo } from '../events.js';
import type { LoopLimits, StreamRetrySettings } from '../loop/loop-types.js';
import type { McpFeature } from '../mcp/mcp-feature.js';
import type { PolicyFeature } from '../policy/policy-feature.js';
import type { StoreSessionPersistence } from '../sessions/session-persistence.js';
import type { LoadedSettings } from '../settings/load-settings.js';
import type { HooksFeature } from '../hooks/hooks-feature.js';
import type { SkillsFeature } from '../skills/skills-feature.js';
import type { SubagentsFeature } from '../subagents/subagents-feature.js';
import type { CommandCheck } from '../workspace/workspace-shell.js';
import { createWorkspace, type Workspace } from '../workspace/workspace.js';
import { createAgentFeatures } from './agent-features.js';
import type { AgentExtensions } from './agent-extensions.js';
import type { GeminiCliAgentOptions } from './agent-options.js';
import { createAgentPersistence, validateApprovalTtl } from './agent-persistence.js';
import { chatGenerationConfig, type ChatGenerationConfig } from '../model/generation-defaults.js';
import { geminiHome } from '../settings/settings-paths.js';
import {
  loadSessionPreamble,
  preambleTextSharer,
  type SessionPreamble,
} from './session-preamble.js';
import {
  loadAgentSettings,
  settingsIncludeDirectories,
  settingsMaxTurns,
} from './agent-settings.js';
import { composeFeatures, type FeatureChains } from './feature-chains.js';
import { validateInstructions, type SystemInstructions } from './instructions.js';
import { OpenSessions } from './open-sessions.js';
import { contextSettings, type ContextSettings } from './context-options.js';
import type { Budget, ModelPrice } from '../context/budget.js';
import { validateSystemPrompt, type SystemPromptOption } from './system-prompt.js';

/** Default `limits.maxTurns`. */
export const DEFAULT_MAX_TURNS = 100;

/** Per-session hooks the model factory wires into the model. */
export interface ModelHooks {
  /** The session the model is for (the Code Assist API receives it as `session_id`). */
  sessionId?: string;
  /** Called before each retry backoff of a connection (the session emits it as a `retry` event). */
  onRetry(info: RetryEventInfo): void;
}

/**
 * Everything an agent's sessions are built from: the options, validated, and the features composed into the seams
 * the session and the loop call. Capabilities join as {@link Feature}s; the loop's body never changes.
 */
export interface AgentServices {
  instructions: SystemInstructions | undefined;
  /** The `systemPrompt` option: which base prompt surrounds the sections and the instructions. */
  systemPrompt: SystemPromptOption;
  /** The model id sent in requests. */
  modelName: string;
  /** Builds the model for one session (replay restarts at line 1 for each session, as in gemini-cli). */
  createModel(hooks: ModelHooks): Promise<ContentGenerator>;
  /** The agent's features in order (see `createAgentFeatures`). */
  features: readonly Feature[];
  /** The features composed: tool providers, sections, interceptor chains. */
  chains: FeatureChains;
  /** The policy feature: engine (built once), approval handler and mode; `forSession` gives `session.policy`. */
  policy: PolicyFeature;
  /** Skills: discovery, the `activate_skill` tool and the `<available_skills>` section. */
  skills: SkillsFeature;
  /** The MCP client: the servers of the settings and the `mcpServers` option (`agent.mcp`). */
  mcp: McpFeature;
  /** Hooks: the `hooks` option's and the settings files' (listed by `agent.hooks()`). */
  hooks: HooksFeature;
  /** Subagents: the `subagents` option's and the agent files' (`invoke_agent`, `agent.subagents()`). */
  subagents: SubagentsFeature;
  /** The extensions (listed by `agent.extensions()`). */
  extensions: AgentExtensions;
  /** Where sessions are stored (`sessionStore` / `persist` options; default gemini-cli's JSONL files). */
  persistence: StoreSessionPersistence;
  /** Paused approvals older than this (ms) are denied when resolved (`approvalTtlMs`). */
  approvalTtlMs: number | undefined;
  /** The agent's sessions that hold a lease, by id (`resumeSession` takes an idle one's lease over). */
  openSessions: OpenSessions;
  /** Builds a session's workspace (`ctx.fs`, `ctx.shell`); `commandCheck` decides `ctx.shell` commands. */
  createWorkspace(commandCheck?: CommandCheck): Workspace;
  limits: LoopLimits;
  /** Mid-stream re-sends of a model call (`retry` option; `retry: false` turns them off). */
  streamRetry: StreamRetrySettings;
  /**
   * The generationConfig of a request for `model`: gemini-cli's defaults for that Gemini model with the
   * `generationConfig` option over them, or only the option for a model another provider serves (Gemini's
   * defaults would make it warn about settings it drops on every request).
   */
  generationConfig(model: string): ChatGenerationConfig | undefined;
  logger: Logger;
  /** The sessions' working directory (as given, or `process.cwd()`). */
  cwd: string;
  /** gemini-cli's settings files, merged, and the folder trust (features read their keys here). */
  settings: LoadedSettings;
  /** A session's context files and `<session_context>`, loaded when it initializes. */
  loadPreamble(workspace: Workspace): Promise<SessionPreamble>;
  /** The `context` option over the settings: compression threshold, truncation, token limit. */
  context: ContextSettings;
  /** The `budget` option (each session's limits) and the `prices` option. */
  budget: { limits: Budget; prices: Record<string, ModelPrice> };
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
  const sharePreambleText = preambleTextSharer();
  const context = contextSettings(options.context, settings);
  const { features, skills, policy, mcp, hooks, extensions, subagents } = createAgentFeatures(
    options,
    {
      cwd,
      logger,
      settings,
      context,
    },
  );
  const modelName = agentModel(options, merged.model?.name);
  return {
    instructions,
    systemPrompt: validateSystemPrompt(options.systemPrompt),
    modelName,
    createModel: (hooks) => createModelFor(options, logger, hooks, { settings, authCache }),
    features,
    chains: composeFeatures(features),
    policy,
    skills,
    mcp,
    hooks,
    subagents,
    extensions,
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
    limits: validateLimits({
      ...options.limits,
      maxTurns: options.limits?.maxTurns ?? settingsMaxTurns(merged),
    }),
    streamRetry: streamRetryFrom(options.retry),
    generationConfig: (model) => {
      const gemini = options.contentGenerator ? model : geminiModelName(model, options.provider);
      return gemini === undefined
        ? options.generationConfig
        : chatGenerationConfig(gemini, options.generationConfig);
    },
    logger,
    cwd,
    settings,
    context,
    budget: { limits: { ...options.budget }, prices: { ...options.prices } },
    loadPreamble: async (workspace) =>
      sharePreambleText(
        await loadSessionPreamble(
          {
            memory: options.memory ?? true,
            sessionContext: options.sessionContext ?? true,
            trusted: settings.trust.trusted,
            fileNames: merged.context?.fileName,
            boundaryMarkers: merged.context?.memoryBoundaryMarkers,
            importFormat: merged.context?.importFormat,
            includeDirectoryTree: merged.context?.includeDirectoryTree,
            home: geminiHome(),
            extensionFiles: extensions.contextFiles,
            extensionTexts: extensions.contextTexts,
          },
          workspace,
          logger,
        ),
      ),
  };
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
    model: agentModel(options, shared.settings.merged.model?.name),
    ...(options.provider === undefined ? {} : { provider: options.provider }),
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
