import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type {
  CountTokensParameters,
  CountTokensResponse,
  EmbedContentParameters,
  EmbedContentResponse,
  GenerateContentParameters,
  GenerateContentResponse,
} from '@google/genai';
import { ConfigurationError } from '../errors.js';
import type { ContentGenerator, ContentGeneratorMethod } from './content-generator.js';
import { resolveReplayPath } from './replay-file.js';
import { safeJsonStringify } from './safe-json.js';

/**
 * A {@link ContentGenerator} that forwards every call to `inner` and appends one line per completed call to a
 * JSONL file in gemini-cli's replay format (`recordResponses`), so the file can later be replayed with
 * `fakeResponses`.
 *
 * As in gemini-cli: only `candidates` and `usageMetadata` of each response are kept (`responseId`,
 * `modelVersion`… are dropped); a stream's line is written only after the consumer iterated it to the end
 * (nothing on abort, error or early `break`); the file is appended to, never truncated. Unlike gemini-cli the
 * write is asynchronous but awaited before the call (or the stream's last `next()`) settles, so a caller that
 * has finished a call can read its line.
 */
export class RecordingContentGenerator implements ContentGenerator {
  /** Absolute path of the recording file. */
  readonly file: string;
  private readonly inner: ContentGenerator;
  private dirReady: Promise<void> | undefined;
  private writes: Promise<void> = Promise.resolve();

  constructor(inner: ContentGenerator, file: string | URL) {
    this.inner = inner;
    this.file = resolveReplayPath(file);
  }

  /** The wrapped generator's Code Assist tier, if any (gemini-cli's recorder passes it through too). */
  get userTier(): string | undefined {
    return this.inner.userTier;
  }

  /** The wrapped generator's tier name, if any. */
  get userTierName(): string | undefined {
    return this.inner.userTierName;
  }

  async generateContentStream(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<GenerateContentResponse>> {
    const stream = await this.inner.generateContentStream(params, signal);
    const record = (response: unknown): Promise<void> =>
      this.append('generateContentStream', response);
    return (async function* () {
      const recorded: unknown[] = [];
      for await (const chunk of stream) {
        recorded.push(pickResponse(chunk));
        yield chunk;
      }
      await record(recorded);
    })();
  }

  async generateContent(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<GenerateContentResponse> {
    const response = await this.inner.generateContent(params, signal);
    await this.append('generateContent', pickResponse(response));
    return response;
  }

  async countTokens(
    params: CountTokensParameters,
    signal?: AbortSignal,
  ): Promise<CountTokensResponse> {
    const response = await this.inner.countTokens(params, signal);
    await this.append('countTokens', {
      totalTokens: response.totalTokens,
      cachedContentTokenCount: response.cachedContentTokenCount,
    });
    return response;
  }

  async embedContent(
    params: EmbedContentParameters,
    signal?: AbortSignal,
  ): Promise<EmbedContentResponse> {
    if (!this.inner.embedContent) {
      throw new ConfigurationError(
        'The wrapped model does not support embedContent; use a generator that implements it.',
      );
    }
    const response = await this.inner.embedContent(params, signal);
    await this.append('embedContent', {
      embeddings: response.embeddings,
      metadata: response.metadata,
    });
    return response;
  }

  /** Appends one line; writes are serialised so lines keep the order calls completed in. */
  private append(method: ContentGeneratorMethod, response: unknown): Promise<void> {
    const line = `${safeJsonStringify({ method, response })}\n`;
    const write = async (): Promise<void> => {
      try {
        this.dirReady ??= mkdir(dirname(this.file), { recursive: true }).then(() => undefined);
        await this.dirReady;
        await appendFile(this.file, line, 'utf8');
      } catch (err) {
        throw new ConfigurationError(
          `Cannot write the recordResponses file ${this.file}: ${(err as Error).message}. ` +
            'Choose a writable path.',
          { cause: err },
        );
      }
    };
    const next = this.writes.then(write, write);
    this.writes = next.catch(() => undefined);
    return next;
  }
}

function pickResponse(response: GenerateContentResponse): unknown {
  return { candidates: response.candidates, usageMetadata: response.usageMetadata };
}
