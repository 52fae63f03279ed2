import { resolve } from 'node:path';
import { CliUsageError } from './cli-errors.js';
import type { CliOptions } from './cli-options.js';
import {
  MissingCredentialsError,
  createStderrLogger,
  openAICompatible,
  skillDir,
  type GeminiCliAgentOptions,
  type ModelProvider,
  type Settings,
} from './sdk.js';

/**
 * Maps the command line to agent options. Relative paths are resolved against the working directory, so
 * the files named on the command line are the ones used whatever the agent does with its `cwd`.
 */
export function agentOptionsFrom(
  options: CliOptions,
  cwd: string,
  env: Readonly<Record<string, string | undefined>> = {},
): GeminiCliAgentOptions {
  const agentOptions: GeminiCliAgentOptions = { cwd };
  // gemini-cli's precedence: -m, then GEMINI_MODEL, then model.name from the settings.
  const model = options.model ?? (env['GEMINI_MODEL']?.trim() || undefined);
  if (model !== undefined) agentOptions.model = model;
  if (options.baseUrl !== undefined) agentOptions.provider = baseUrlProvider(options, model, env);
  if (options.skipTrust) agentOptions.trustWorkspace = true;
  const overrides = settingsOverrides(options, cwd);
  if (overrides !== undefined) agentOptions.settings = { overrides };
  if (options.fakeResponses !== undefined) {
    agentOptions.fakeResponses = resolve(cwd, options.fakeResponses);
  }
  if (options.recordResponses !== undefined) {
    agentOptions.recordResponses = resolve(cwd, options.recordResponses);
  }
  if (options.includeDirectories.length > 0) {
    agentOptions.includeDirectories = options.includeDirectories.map((dir) => resolve(cwd, dir));
  }
  if (options.skills.length > 0) {
    agentOptions.skills = options.skills.map((dir) => skillDir(resolve(cwd, dir)));
  }
  if (options.extensions !== undefined) agentOptions.enabledExtensions = options.extensions;
  if (options.approvalMode !== undefined) agentOptions.policy = { mode: options.approvalMode };
  if (options.maxTurns !== undefined) agentOptions.limits = { maxTurns: options.maxTurns };
  if (options.maxCostUsd !== undefined || options.maxTokens !== undefined) {
    agentOptions.budget = {
      ...(options.maxCostUsd === undefined ? {} : { maxCostUsd: options.maxCostUsd }),
      ...(options.maxTokens === undefined ? {} : { maxTotalTokens: options.maxTokens }),
    };
  }
  if (options.debug) agentOptions.logger = createStderrLogger('[gemini-agent]');
  return agentOptions;
}

/**
 * `--base-url` (with `--api-key-env`): an OpenAI-compatible server for the models without a provider prefix. The
 * key is read from the named variable only, so it never appears on the command line.
 */
function baseUrlProvider(
  options: CliOptions,
  model: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): ModelProvider {
  if (model === undefined) {
    throw new CliUsageError(
      '--base-url needs -m <model>: the name the server knows the model by (e.g. -m llama3.2).',
    );
  }
  const name = options.apiKeyEnv;
  const apiKey = name === undefined ? undefined : env[name]?.trim();
  if (name !== undefined && !apiKey) {
    throw new MissingCredentialsError(
      `--api-key-env ${name}: ${name} is not set. Export it with the API key of ${options.baseUrl}, or leave ` +
        '--api-key-env out for a server without keys.',
    );
  }
  return openAICompatible({ baseURL: options.baseUrl, ...(apiKey ? { apiKey } : {}) });
}

/** The flags that replace settings keys, as gemini-cli applies them over the merged settings. */
function settingsOverrides(options: CliOptions, cwd: string): Settings | undefined {
  const overrides: Settings = {};
  if (options.policy !== undefined)
    overrides.policyPaths = options.policy.map((p) => resolve(cwd, p));
  if (options.adminPolicy !== undefined) {
    overrides.adminPolicyPaths = options.adminPolicy.map((p) => resolve(cwd, p));
  }
  if (options.allowedTools !== undefined) overrides.tools = { allowed: options.allowedTools };
  if (options.allowedMcpServerNames !== undefined) {
    overrides.mcp = { allowed: options.allowedMcpServerNames };
  }
  return Object.keys(overrides).length > 0 ? overrides : undefined;
}
