import { ConfigurationError, MissingCredentialsError } from '../../errors.js';
import type { ModelProvider, ProviderCapabilities, ProviderContext } from '../model-provider.js';
import type { OpenAIEndpoint } from './openai-generator.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Options of {@link openAICompatible}. */
export interface OpenAICompatibleOptions {
  /**
   * The API's base URL, e.g. `http://localhost:11434/v1` (Ollama), `http://localhost:8000/v1` (vLLM). Default:
   * `OPENAI_BASE_URL`, else `https://api.openai.com/v1`.
   */
  baseURL?: string;
  /**
   * The API key. Default: `OPENAI_API_KEY`, but only when `baseURL` is not given (a key meant for OpenAI is never
   * sent to another server by accident). Without a key no `Authorization` header is sent (local servers).
   */
  apiKey?: string;
  /** Provider id: the model prefix routed here and the name in messages (default `openai`). */
  id?: string;
  /** Model used when the agent names none. */
  model?: string;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** OpenAI organization / project headers. */
  organization?: string;
  project?: string;
  /** Request timeout in ms (the client's default: 10 minutes). */
  timeoutMs?: number;
  /**
   * Ask for token usage on streams (`stream_options.include_usage`, default true). Turn off for servers that
   * reject the option.
   */
  streamUsage?: boolean;
  /**
   * The field `maxOutputTokens` maps to. Default `max_completion_tokens` for api.openai.com (its reasoning models
   * accept nothing else), `max_tokens` elsewhere (what most compatible servers read).
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** What an OpenAI-compatible Chat Completions API can do. */
export const OPENAI_CAPABILITIES: ProviderCapabilities = {
  thoughtSignatures: false,
  grounding: false,
  codeExecution: false,
  urlContext: false,
  countTokens: false,
  embeddings: true,
};

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/**
 * A {@link ModelProvider} for any OpenAI-compatible Chat Completions API — OpenAI itself, or Ollama, vLLM,
 * LM Studio, llama.cpp, LiteLLM and gateways by base URL — through the official `openai` package:
 *
 * ```ts
 * new GeminiCliAgent({ provider: openAICompatible({ baseURL: 'http://localhost:11434/v1' }), model: 'llama3.2' })
 * ```
 *
 * Tools, parallel calls, streaming, system instructions, usage and finish reasons are mapped both ways; see
 * docs/providers.md for what has no equivalent.
 *
 * @throws ConfigurationError for an invalid `baseURL` or `id`.
 */
export function openAICompatible(options: OpenAICompatibleOptions = {}): ModelProvider {
  const id = options.id ?? 'openai';
  if (!/^[a-z][a-z0-9-]*$/.test(id)) {
    throw new ConfigurationError(
      `Invalid provider id "${id}": use lower-case letters, digits and "-" (it is the model prefix, as in "${id}:model").`,
    );
  }
  if (options.baseURL !== undefined) checkBaseUrl(options.baseURL, 'baseURL');
  return {
    id,
    ...(options.model === undefined ? {} : { defaultModel: options.model }),
    capabilities: OPENAI_CAPABILITIES,
    async createGenerator(context: ProviderContext) {
      const endpoint = resolveEndpoint(id, options, context.env);
      const { OpenAICompatibleGenerator } = await import('./openai-generator.js');
      return new OpenAICompatibleGenerator(endpoint, context.logger);
    },
  };
}

/** The providers a model prefix selects without configuration: `openai:` and `ollama:`. */
export function builtinProvider(prefix: string, env: Env): ModelProvider | undefined {
  if (prefix === 'openai') return openAICompatible();
  if (prefix === 'ollama') {
    return openAICompatible({ id: 'ollama', baseURL: `${ollamaHost(env)}/v1` });
  }
  return undefined;
}

/** The ids {@link builtinProvider} knows. */
export const BUILTIN_PROVIDER_IDS: readonly string[] = ['openai', 'ollama'];

/** `OLLAMA_HOST` as Ollama reads it (`host`, `host:port` or a URL; `0.0.0.0` means this machine). */
function ollamaHost(env: Env): string {
  const raw = (env['OLLAMA_HOST'] ?? '').trim() || '127.0.0.1:11434';
  const url = /^https?:\/\//i.test(raw) ? raw : `http://${raw}`;
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
  if (!parsed.port && !/^https?:\/\/[^/]+:\d+/i.test(url)) parsed.port = '11434';
  return parsed.origin;
}

function checkBaseUrl(url: string, where: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new ConfigurationError(
      `Invalid ${where} "${url}": it must be an http:// or https:// URL such as http://localhost:11434/v1.`,
    );
  }
}

function resolveEndpoint(id: string, options: OpenAICompatibleOptions, env: Env): OpenAIEndpoint {
  const fromEnvUrl = id === 'openai' ? env['OPENAI_BASE_URL'] || undefined : undefined;
  if (options.baseURL === undefined && fromEnvUrl !== undefined)
    checkBaseUrl(fromEnvUrl, 'OPENAI_BASE_URL');
  const baseURL = (options.baseURL ?? fromEnvUrl ?? OPENAI_BASE_URL).replace(/\/+$/, '');
  const envKey = options.baseURL === undefined ? env['OPENAI_API_KEY'] || undefined : undefined;
  const apiKey = options.apiKey ?? envKey;
  const isOpenAI = new URL(baseURL).hostname === 'api.openai.com';
  if (apiKey === undefined && isOpenAI) {
    throw new MissingCredentialsError(
      `No OpenAI API key for model provider "${id}": set OPENAI_API_KEY or pass openAICompatible({ apiKey }). ` +
        'For a local server (Ollama, vLLM…) pass its baseURL instead.',
    );
  }
  return {
    id,
    baseURL,
    apiKey,
    keyHint:
      options.apiKey !== undefined ? 'the apiKey option of openAICompatible()' : 'OPENAI_API_KEY',
    headers: { ...options.headers },
    organization: options.organization,
    project: options.project,
    timeoutMs: options.timeoutMs,
    streamUsage: options.streamUsage ?? true,
    maxTokensField: options.maxTokensField ?? (isOpenAI ? 'max_completion_tokens' : 'max_tokens'),
  };
}
