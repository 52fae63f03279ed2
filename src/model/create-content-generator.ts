import { ConfigurationError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ContentGenerator } from './content-generator.js';
import { GeminiContentGenerator } from './gemini-generator.js';
import { RecordingContentGenerator } from './recorder.js';
import { createReplayGenerator } from './replay.js';
import { RetryingContentGenerator, type RetryOptions } from './retry.js';

/** Options of {@link createContentGenerator}. */
export interface CreateContentGeneratorOptions {
  /**
   * Replay this gemini-cli JSONL file instead of calling the API (no network, no credentials). Each generator
   * created replays from line 1 — call `createContentGenerator` once per session, as the reference does.
   */
  fakeResponses?: string | URL;
  /** Strict replay (default `true`); `false` takes the first remaining line of the called method. */
  fakeResponsesStrict?: boolean;
  /** Append one line per completed call to this file, in the replay format. Wraps everything else. */
  recordResponses?: string | URL;
  /** Gemini API key; beats `GEMINI_API_KEY` / `GOOGLE_API_KEY`. */
  apiKey?: string;
  /** API base URL; beats `GOOGLE_GEMINI_BASE_URL` / `GOOGLE_VERTEX_BASE_URL`. */
  baseUrl?: string;
  /** Use Vertex AI; beats `GOOGLE_GENAI_USE_VERTEXAI`. */
  vertexai?: boolean;
  /** Google Cloud project (Vertex AI); beats `GOOGLE_CLOUD_PROJECT`. */
  project?: string;
  /** Google Cloud location (Vertex AI); beats `GOOGLE_CLOUD_LOCATION`. */
  location?: string;
  /** API version; beats `GOOGLE_GENAI_API_VERSION`. */
  apiVersion?: string;
  /** Extra HTTP headers for the Gemini API. */
  headers?: Record<string, string>;
  /** Environment read instead of `process.env`. */
  env?: Record<string, string | undefined>;
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
 * - the source is `contentGenerator` if given, else a replay of `fakeResponses`, else the Gemini API
 *   (credentials from options or the environment — `MissingCredentialsError` when there are none);
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
    const gemini = new GeminiContentGenerator({
      apiKey: options.apiKey,
      baseUrl: options.baseUrl,
      vertexai: options.vertexai,
      project: options.project,
      location: options.location,
      apiVersion: options.apiVersion,
      headers: options.headers,
      env: options.env,
      logger,
    });
    // Credentials were checked above; the client library is loaded here, not during the first model call.
    await gemini.preload();
    generator = withRetry(gemini, options.retry, logger);
  }
  if (options.recordResponses !== undefined) {
    generator = new RecordingContentGenerator(generator, options.recordResponses);
  }
  return generator;
}

function withRetry(
  generator: ContentGenerator,
  retry: RetryOptions | false | undefined,
  logger: Logger,
): ContentGenerator {
  if (retry === false) return generator;
  return new RetryingContentGenerator(generator, { logger, ...retry });
}
