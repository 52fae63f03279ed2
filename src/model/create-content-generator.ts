import { ConfigurationError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ContentGenerator } from './content-generator.js';
import { createGeminiSource, type GeminiSourceOptions } from './gemini-source.js';
import { splitModelId, type ModelProvider } from './model-provider.js';
import { BUILTIN_PROVIDER_IDS, builtinProvider } from './openai/openai-compatible.js';
import { GEMINI_KEY, ProviderRouter, routeKey } from './provider-router.js';
import { RecordingContentGenerator } from './recorder.js';
import { createReplayGenerator } from './replay.js';
import { RetryingContentGenerator, type RetryOptions } from './retry.js';

/** Options of {@link createContentGenerator}. */
export interface CreateContentGeneratorOptions extends GeminiSourceOptions {
  /**
   * Replay this gemini-cli JSONL file instead of calling the API (no network, no credentials). Each generator
   * created replays from line 1 — call `createContentGenerator` once per session, as the reference does.
   */
  fakeResponses?: string | URL;
  /** Strict replay (default `true`); `false` takes the first remaining line of the called method. */
  fakeResponsesStrict?: boolean;
  /** Append one line per completed call to this file, in the replay format. Wraps everything else. */
  recordResponses?: string | URL;
  /**
   * A model provider other than Gemini (e.g. `openAICompatible({ baseURL, apiKey })`): models without a prefix go
   * to it. See docs/providers.md.
   */
  provider?: ModelProvider;
  /** Retry settings, or `false` to disable retries. Not applied to replay. */
  retry?: RetryOptions | false;
  /** Use this generator (e.g. a `ScriptedModel`) instead of replay or the Gemini API. Retries apply. */
  contentGenerator?: ContentGenerator;
  /** Logger (default silent). */
  logger?: Logger;
}

/**
 * Builds the {@link ContentGenerator} the agent talks to:
 *
 * - the source is `contentGenerator` if given, else a replay of `fakeResponses`, else Gemini through the auth
 *   method chosen as gemini-cli chooses it ({@link selectAuthType}): the `@google/genai` client for API keys,
 *   Vertex AI and gateways, the Code Assist API for "Login with Google" and Application Default Credentials
 *   (`MissingCredentialsError` / `AuthenticationError` saying what to set when signing in fails);
 * - the source is wrapped in retries (`retry`), except replay, which never fails transiently;
 * - with `recordResponses`, a recorder wraps the result (outermost), as in gemini-cli.
 *
 * Cheap: the replay file is read here (so a missing or malformed file fails now, with a `ReplayError`), but the
 * `@google/genai` client is only imported on the first API call.
 */
export async function createContentGenerator(
  options: CreateContentGeneratorOptions = {},
): Promise<ContentGenerator> {
  const logger = options.logger ?? silentLogger;
  if (options.contentGenerator && options.fakeResponses !== undefined) {
    throw new ConfigurationError(
      'Both contentGenerator and fakeResponses were given: pass only one of them.',
    );
  }
  let generator: ContentGenerator;
  if (options.contentGenerator) {
    generator = withRetry(options.contentGenerator, options.retry, logger);
  } else if (options.fakeResponses !== undefined) {
    generator = await createReplayGenerator(options.fakeResponses, {
      strict: options.fakeResponsesStrict ?? true,
    });
  } else {
    generator = await createRoutedSource(options, logger);
  }
  if (options.recordResponses !== undefined) {
    generator = new RecordingContentGenerator(generator, options.recordResponses);
  }
  return generator;
}

/**
 * The model source for the session's model (the `provider` option, a provider prefix such as `openai:`, or
 * Gemini), built now so missing credentials fail here, behind a {@link ProviderRouter} that builds the other
 * sources on demand when a request names another provider's model. Each source has its own retries.
 */
async function createRoutedSource(
  options: CreateContentGeneratorOptions,
  logger: Logger,
): Promise<ContentGenerator> {
  const env = options.env ?? process.env;
  const provider = options.provider;
  const { known, fallback } = routing(provider);
  const build = async (key: string): Promise<ContentGenerator> => {
    let source: ContentGenerator;
    if (provider && key === provider.id) {
      source = await provider.createGenerator({ model: options.model, logger, env });
    } else if (key === GEMINI_KEY) {
      source = await createGeminiSource(options, logger);
    } else {
      const builtin = builtinProvider(key, env) as ModelProvider;
      source = await builtin.createGenerator({ model: options.model, logger, env });
    }
    return withRetry(source, options.retry, logger);
  };
  const primaryKey = routeKey(options.model, known, fallback);
  return new ProviderRouter(primaryKey, await build(primaryKey), known, build);
}

/** The routing keys a model prefix may name, and where a model without one goes. */
function routing(provider: ModelProvider | undefined): { known: string[]; fallback: string } {
  return {
    known: [GEMINI_KEY, ...BUILTIN_PROVIDER_IDS, ...(provider ? [provider.id] : [])],
    fallback: provider?.id ?? GEMINI_KEY,
  };
}

/**
 * The Gemini model name a model id is sent to Gemini as (a `gemini:` prefix removed), or `undefined` when the id
 * routes to another provider (`openai:gpt-4.1`, or any id without a prefix when `provider` is given).
 */
export function geminiModelName(
  model: string,
  provider: ModelProvider | undefined,
): string | undefined {
  const { known, fallback } = routing(provider);
  if (routeKey(model, known, fallback) !== GEMINI_KEY) return undefined;
  const { prefix, name } = splitModelId(model);
  return prefix === GEMINI_KEY ? name : model;
}

function withRetry(
  generator: ContentGenerator,
  retry: RetryOptions | false | undefined,
  logger: Logger,
): ContentGenerator {
  if (retry === false) return generator;
  return new RetryingContentGenerator(generator, { logger, ...retry });
}
