import type {
  Content,
  ContentUnion,
  CountTokensResponse,
  GenerateContentParameters,
  GenerateContentResponse,
  Part,
} from '@google/genai';
import type { CliIo } from './cli-io.js';
import type { CliOptions } from './cli-options.js';
import {
  AbortError,
  DEFAULT_MODEL,
  GeminiAgentError,
  GeminiCliAgent,
  type ContentGenerator,
  type GeminiCliAgentOptions,
  type LoadedSettings,
  type PolicyRuleInfo,
} from './sdk.js';
import { packageVersion } from './version.js';

/** The prompt of the captured request; it is not part of the dump. */
const PROBE_PROMPT = 'gemini-agent --show-config';

/** Where the model id came from, in gemini-cli's precedence. */
export type ModelSource = '--model' | 'GEMINI_MODEL' | 'settings model.name' | 'default';

/** A context file the first request carries, and where it is placed. */
export interface ShownContextFile {
  path: string;
  /** `systemInstruction` (global and private project memory, extensions) or `sessionContext` (the project's). */
  placedIn: 'systemInstruction' | 'sessionContext';
  /** The `@path` imports expanded into it, in order. */
  imports: string[];
}

/** The JSON `gemini-agent --show-config` prints (docs/cli.md). */
export interface ShownConfig {
  version: string;
  cwd: string;
  model: { name: string; requested: string; source: ModelSource };
  approvalMode: string;
  /** Whether someone can be asked about a tool call (never in the CLI: it runs headless). */
  canAsk: boolean;
  trust: LoadedSettings['trust'] & { reason: string };
  settings: {
    files: Array<{
      scope: string;
      path: string;
      exists: boolean;
      loaded: boolean;
      skipped?: string;
    }>;
    merged: unknown;
    warnings: string[];
  };
  contextFiles: ShownContextFile[];
  systemInstruction: string;
  sessionContext: string;
  generationConfig: Record<string, unknown>;
  tools: string[];
  policy: { files: string[]; rules: PolicyRuleInfo[] };
  hooks: unknown[];
  mcpServers: Array<{ name: string; transport: string; trust: boolean; tools: string[] }>;
  extensions: Array<{ name: string; version: string; active: boolean; path: string | undefined }>;
  skills: Array<{ name: string; enabled: boolean; source: string; location: string }>;
  agents: Array<{ name: string; enabled: boolean; source: string; model: string }>;
  warnings: string[];
}

/**
 * `gemini-agent --show-config`: the effective configuration of a run with these flags in this folder, as JSON on
 * stdout. The model-facing part (model, system instruction, `<session_context>`, generationConfig, tools) is the
 * first request of a real session, captured before it leaves: nothing is sent, no session is stored, no hook
 * runs (hooks are listed), MCP servers are started as a run starts them, to list their tools.
 */
export async function showConfigCommand(
  agentOptions: GeminiCliAgentOptions,
  options: CliOptions,
  io: CliIo,
): Promise<void> {
  const env = io.env ?? {};
  const listing = new GeminiCliAgent(agentOptions);
  const capture = new RequestCapture();
  const overrides = agentOptions.settings === false ? undefined : agentOptions.settings?.overrides;
  const probe = new GeminiCliAgent({
    ...withoutModelSource(agentOptions),
    contentGenerator: capture,
    persist: false,
    retry: false,
    settings: { overrides: { ...overrides, hooksConfig: { enabled: false } } },
  });
  try {
    const settings = listing.settings;
    const session = probe.session();
    const warnings: string[] = [];
    const stop = new AbortController();
    capture.onRequest = () => stop.abort();
    try {
      for await (const event of session.sendStream(PROBE_PROMPT, stop.signal)) {
        if (event.type === 'warning') warnings.push(event.value.message);
        if (event.type === 'error') warnings.push(event.value.error.message);
      }
    } catch (error) {
      if (capture.request === undefined || !(error instanceof AbortError)) throw error;
    }
    const request = capture.request;
    if (request === undefined) {
      throw new GeminiAgentError(
        'SHOW_CONFIG_NO_REQUEST',
        'The session ended before its first model request, so there is no configuration to show; run the ' +
          'same command without --show-config to see why.',
      );
    }
    const rules = (await session.policy.engine()).listRules();
    const shown = await describe({
      request,
      settings,
      rules,
      listing,
      options,
      env,
      cwd: io.cwd,
      approvalMode: session.policy.mode,
      canAsk: session.policy.interactive,
      warnings,
    });
    io.stdout(`${JSON.stringify(shown, null, 2)}\n`);
  } finally {
    await probe.close();
    await listing.close();
  }
}

/**
 * The capture takes the place of the model source (`--fake-responses`, `--record-responses`, `--base-url`), and
 * the budget is left out so that no limit stops the probe before its request.
 */
function withoutModelSource(options: GeminiCliAgentOptions): GeminiCliAgentOptions {
  const { fakeResponses: _f, recordResponses: _r, provider: _p, budget: _b, ...rest } = options;
  return rest;
}

/** A model that keeps the first chat request and answers nothing (the session is aborted when it arrives). */
class RequestCapture implements ContentGenerator {
  request: GenerateContentParameters | undefined;
  onRequest: (() => void) | undefined;

  generateContentStream(
    params: GenerateContentParameters,
  ): Promise<AsyncIterable<GenerateContentResponse>> {
    this.request ??= params;
    this.onRequest?.();
    return Promise.reject(new AbortError('Captured by --show-config.'));
  }

  generateContent(): Promise<GenerateContentResponse> {
    return Promise.reject(new AbortError('Captured by --show-config.'));
  }

  countTokens(): Promise<CountTokensResponse> {
    return Promise.resolve({ totalTokens: 0 });
  }
}

interface DescribeInput {
  request: GenerateContentParameters;
  settings: LoadedSettings;
  rules: PolicyRuleInfo[];
  listing: GeminiCliAgent;
  options: CliOptions;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  approvalMode: string;
  canAsk: boolean;
  warnings: string[];
}

async function describe(input: DescribeInput): Promise<ShownConfig> {
  const { request, settings, listing } = input;
  const config = (request.config ?? {}) as Record<string, unknown>;
  const systemInstruction = contentText(config['systemInstruction'] as ContentUnion | undefined);
  const sessionContext = sessionContextText(request.contents);
  const tools = declaredTools(config['tools']);
  const generationConfig = Object.fromEntries(
    Object.entries(config).filter(([key]) => !NOT_GENERATION_CONFIG.has(key)),
  );
  const skills = await listing.skills().then(
    (manager) => manager.list(),
    () => [],
  );
  const agents = await listing.subagents().then(
    (l) => l.subagents,
    () => [],
  );
  const hooks = listing.hooks();
  const extensions = listing.extensions();
  const mcpServers = Object.entries(settings.merged.mcpServers ?? {}).map(([name, server]) => ({
    name,
    transport: transportOf(server as Record<string, unknown>),
    trust: (server as { trust?: unknown }).trust === true,
    tools: tools.filter((t) => t.startsWith(`mcp_${name}_`)),
  }));
  return {
    version: packageVersion(),
    cwd: input.cwd,
    model: modelOf(request.model, input.options, input.env, settings),
    approvalMode: input.approvalMode,
    canAsk: input.canAsk,
    trust: { ...settings.trust, reason: trustReason(settings.trust) },
    settings: {
      files: settings.files.map((f) => ({
        scope: f.scope,
        path: f.path,
        exists: f.exists,
        loaded: f.exists && f.skipped === undefined,
        ...(f.skipped === undefined ? {} : { skipped: f.skipped }),
      })),
      merged: redactSecrets(settings.merged),
      warnings: settings.warnings.map((w) => w.message),
    },
    contextFiles: [
      ...contextFilesIn(systemInstruction, 'systemInstruction'),
      ...contextFilesIn(sessionContext, 'sessionContext'),
    ],
    systemInstruction,
    sessionContext,
    generationConfig,
    tools,
    policy: {
      files: [...new Set(input.rules.flatMap((r) => policyFile(r.source)))],
      rules: input.rules,
    },
    hooks: hooks.hooks,
    mcpServers,
    extensions: extensions.extensions.map((e) => ({
      name: e.name,
      version: e.version,
      active: e.active,
      path: e.path,
    })),
    skills: skills.map((s) => ({
      name: s.name,
      enabled: s.enabled,
      source: s.source,
      location: s.location,
    })),
    agents: agents.map((a) => ({
      name: a.name,
      enabled: a.enabled,
      source: a.source,
      model: a.model,
    })),
    warnings: [...hooks.warnings, ...extensions.warnings, ...input.warnings],
  };
}

/** Request config keys that are not part of the REST body's `generationConfig`. */
const NOT_GENERATION_CONFIG = new Set([
  'systemInstruction',
  'tools',
  'toolConfig',
  'abortSignal',
  'httpOptions',
  'safetySettings',
  'cachedContent',
  'labels',
]);

function modelOf(
  name: string,
  options: CliOptions,
  env: Readonly<Record<string, string | undefined>>,
  settings: LoadedSettings,
): ShownConfig['model'] {
  const fromEnv = env['GEMINI_MODEL']?.trim();
  const fromSettings = settings.merged.model?.name;
  if (options.model !== undefined) return { name, requested: options.model, source: '--model' };
  if (fromEnv) return { name, requested: fromEnv, source: 'GEMINI_MODEL' };
  if (typeof fromSettings === 'string' && fromSettings !== '') {
    return { name, requested: fromSettings, source: 'settings model.name' };
  }
  return { name, requested: DEFAULT_MODEL, source: 'default' };
}

function trustReason(trust: LoadedSettings['trust']): string {
  switch (trust.source) {
    case 'option':
      return trust.trusted ? '--skip-trust' : 'trustWorkspace: false';
    case 'env':
      return trust.trusted
        ? 'GEMINI_CLI_TRUST_WORKSPACE=true'
        : 'GEMINI_RESTRICTED_MODE=true or GEMINI_CLI_TRUST_WORKSPACE=false';
    case 'disabled':
      return 'security.folderTrust.enabled is false: every folder is trusted';
    case 'file':
      return trust.trusted
        ? `a TRUST_FOLDER or TRUST_PARENT rule of ${trust.file ?? 'trustedFolders.json'}`
        : `a DO_NOT_TRUST rule of ${trust.file ?? 'trustedFolders.json'}`;
    case 'none':
      return `no rule of ${trust.file ?? 'trustedFolders.json'} matches this folder`;
  }
}

function transportOf(server: Record<string, unknown>): string {
  if (typeof server['httpUrl'] === 'string') return 'http';
  if (typeof server['url'] === 'string')
    return server['type'] === 'http' || server['type'] === 'sse' ? server['type'] : 'http+sse';
  if (typeof server['command'] === 'string') return 'stdio';
  return 'unknown';
}

/** `User: /home/me/.gemini/policies/x.toml` → the file; built-in and code rules have none. */
function policyFile(source: string): string[] {
  const match = /^[A-Za-z][A-Za-z ]*: (.+)$/.exec(source);
  return match?.[1] !== undefined && /[\\/]/.test(match[1]) ? [match[1]] : [];
}

function partsText(parts: readonly Part[] | undefined): string {
  return (parts ?? []).map((p) => p.text ?? '').join('');
}

function contentText(content: ContentUnion | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (typeof p === 'string' ? p : (p.text ?? ''))).join('');
  }
  if ('parts' in content) return partsText((content as Content).parts);
  return (content as Part).text ?? '';
}

/** The first user turn's parts before the prompt: the `<session_context>`. */
function sessionContextText(contents: GenerateContentParameters['contents']): string {
  if (!Array.isArray(contents)) return '';
  const first = contents[0] as Content | undefined;
  const parts = first?.parts ?? [];
  return partsText(parts.slice(0, -1));
}

function declaredTools(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((t) =>
    ((t as { functionDeclarations?: Array<{ name?: string }> }).functionDeclarations ?? []).map(
      (d) => d.name ?? '',
    ),
  );
}

const CONTEXT_START = /^--- Context from: (.+) ---$/;
const CONTEXT_END = /^--- End of Context from: (.+) ---$/;
const IMPORT_START = /<!-- Imported from: (.+?) -->/g;

/** The context files rendered into a text (gemini-cli's `--- Context from: <path> ---` blocks), in order. */
export function contextFilesIn(
  text: string,
  placedIn: ShownContextFile['placedIn'],
): ShownContextFile[] {
  const files: ShownContextFile[] = [];
  let current: ShownContextFile | undefined;
  for (const line of text.split('\n')) {
    const start = CONTEXT_START.exec(line);
    if (start?.[1] !== undefined) {
      current = { path: start[1], placedIn, imports: [] };
      files.push(current);
      continue;
    }
    if (CONTEXT_END.test(line)) {
      current = undefined;
      continue;
    }
    if (current === undefined) continue;
    for (const imported of line.matchAll(IMPORT_START)) {
      if (imported[1] !== undefined) current.imports.push(imported[1]);
    }
  }
  return files;
}

const SECRET_KEY = /key|token|secret|password|authorization|credential/i;

/**
 * The merged settings with the values that may hold credentials replaced by `<redacted>`: every value of an MCP
 * server's `env` and `headers`, and any string under a key that names a secret.
 */
function redactSecrets(value: unknown, parentKey = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, parentKey));
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' && SECRET_KEY.test(parentKey) ? '<redacted>' : value;
  }
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, v]) => [
      key,
      (parentKey === 'env' || parentKey === 'headers') && typeof v === 'string'
        ? '<redacted>'
        : redactSecrets(v, key),
    ]),
  );
}
