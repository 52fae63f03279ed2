import type {
  CountTokensParameters,
  CountTokensResponse,
  EmbedContentParameters,
  EmbedContentResponse,
  GenerateContentParameters,
  GenerateContentResponse,
} from '@google/genai';
import { ReplayError } from '../errors.js';
import { throwIfAborted } from '../core/abort.js';
import type { ContentGenerator, ContentGeneratorMethod } from './content-generator.js';
import { loadReplayFile, type FakeResponse, type ReplayLine } from './replay-file.js';
import { summarizeRequest } from './request-summary.js';

/** Options for {@link ReplayContentGenerator} and {@link createReplayGenerator}. */
export interface ReplayOptions {
  /**
   * Strict replay (default `true`), as gemini-cli's `--fake-responses`: lines are used in file order with one
   * cursor across all methods; a call whose method differs from the next line's consumes that line and throws.
   * With `false` (gemini-cli's `--fake-responses-non-strict`), each call takes the first remaining line with
   * its method.
   */
  strict?: boolean;
}

type ResponseOf<M extends ContentGeneratorMethod> = Extract<
  FakeResponse,
  { method: M }
>['response'];

/**
 * A {@link ContentGenerator} replaying a gemini-cli JSONL replay file (`fakeResponses`). No network, no
 * credentials. Every response is `structuredClone`d per call, so callers may mutate what they get.
 *
 * A generator holds its own cursor: build a new one (with {@link createReplayGenerator}) for each session and
 * it replays from line 1 — the reference SDK does the same, resumed sessions included.
 *
 * Errors (all {@link ReplayError} naming the file and line): `REPLAY_EXHAUSTED`
 * (`No more mock responses for <method>, got request <n>: <summary>`, the summary from {@link summarizeRequest}:
 * gemini-cli's words, without its dump of the whole request and its tool declarations) and `REPLAY_MISMATCH`
 * (`Unexpected response type, next response was for <lineMethod> but expected <method>`); the gemini-cli
 * wording comes first, the file and line follow.
 */
export class ReplayContentGenerator implements ContentGenerator {
  /** Absolute path of the replay file (used in error messages). */
  readonly file: string;
  /** Whether replay is strict (see {@link ReplayOptions.strict}). */
  readonly strict: boolean;
  private readonly lines: ReplayLine[];
  private readonly total: number;
  private cursor = 0;
  private requests = 0;

  constructor(lines: readonly ReplayLine[], file: string, options: ReplayOptions = {}) {
    this.lines = lines.map((l) => ({ line: l.line, entry: structuredClone(l.entry) }));
    this.total = lines.length;
    this.file = file;
    this.strict = options.strict ?? true;
  }

  /** Number of lines not yet consumed. */
  get remaining(): number {
    return this.strict ? this.total - this.cursor : this.lines.length;
  }

  async generateContentStream(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<GenerateContentResponse>> {
    throwIfAborted(signal);
    const chunks = this.take('generateContentStream', params);
    return (async function* () {
      for (const chunk of chunks) {
        throwIfAborted(signal);
        yield chunk as unknown as GenerateContentResponse;
      }
    })();
  }

  async generateContent(
    params: GenerateContentParameters,
    signal?: AbortSignal,
  ): Promise<GenerateContentResponse> {
    throwIfAborted(signal);
    return this.take('generateContent', params) as unknown as GenerateContentResponse;
  }

  async countTokens(
    params: CountTokensParameters,
    signal?: AbortSignal,
  ): Promise<CountTokensResponse> {
    throwIfAborted(signal);
    return this.take('countTokens', params) as CountTokensResponse;
  }

  async embedContent(
    params: EmbedContentParameters,
    signal?: AbortSignal,
  ): Promise<EmbedContentResponse> {
    throwIfAborted(signal);
    return this.take('embedContent', params) as unknown as EmbedContentResponse;
  }

  private take<M extends ContentGeneratorMethod>(method: M, request: unknown): ResponseOf<M> {
    this.requests++;
    const found = this.strict ? this.takeStrict(method, request) : this.takeLoose(method, request);
    return structuredClone(found.entry.response) as ResponseOf<M>;
  }

  private takeStrict(method: ContentGeneratorMethod, request: unknown): ReplayLine {
    const next = this.lines[this.cursor];
    if (next === undefined) throw this.exhausted(method, request);
    this.cursor++;
    if (next.entry.method !== method) {
      throw new ReplayError(
        `Unexpected response type, next response was for ${next.entry.method} but expected ${method} ` +
          `(replay file ${this.file}, line ${next.line}; that line is now consumed). The calls made no longer ` +
          `match the recording: re-record the file with recordResponses, or use fakeResponsesStrict: false.`,
        { file: this.file, line: next.line, code: 'REPLAY_MISMATCH' },
      );
    }
    return next;
  }

  private takeLoose(method: ContentGeneratorMethod, request: unknown): ReplayLine {
    const index = this.lines.findIndex((l) => l.entry.method === method);
    if (index < 0) throw this.exhausted(method, request);
    const [found] = this.lines.splice(index, 1);
    return found as ReplayLine;
  }

  private exhausted(method: ContentGeneratorMethod, request: unknown): ReplayError {
    const where = this.strict
      ? `all ${this.total} line(s) of replay file ${this.file} are consumed`
      : `replay file ${this.file} has no remaining ${method} line (non-strict replay)`;
    return new ReplayError(
      `No more mock responses for ${method}, got request ${this.requests} (${summarizeRequest(request)}).\n` +
        `(${where}. Each session replays from line 1: add lines for the extra calls, or re-record with ` +
        `recordResponses.)`,
      { file: this.file, code: 'REPLAY_EXHAUSTED' },
    );
  }
}

/**
 * Loads a replay file and returns a fresh {@link ReplayContentGenerator} positioned at line 1.
 *
 * @throws ReplayError `REPLAY_FILE_MISSING` or `REPLAY_MALFORMED` (with the 1-based line) at load time.
 */
export async function createReplayGenerator(
  path: string | URL,
  options: ReplayOptions = {},
): Promise<ReplayContentGenerator> {
  const { file, lines } = await loadReplayFile(path);
  return new ReplayContentGenerator(lines, file, options);
}
