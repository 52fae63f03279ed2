import type { Logger } from '../logger.js';
import type { ContentGenerator } from './content-generator.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What a provider's model can do; a request needing a missing capability fails with `ModelCapabilityError`. */
export interface ProviderCapabilities {
  /** Gemini's thought signatures (replayed reasoning). Without them, signatures in history are dropped. */
  thoughtSignatures: boolean;
  /** Grounding with Google Search / Maps / enterprise search (`googleSearch`, `googleSearchRetrieval`…). */
  grounding: boolean;
  /** Server-side code execution (`codeExecution`). */
  codeExecution: boolean;
  /** Server-side URL fetching (`urlContext`). */
  urlContext: boolean;
  /** `countTokens`. */
  countTokens: boolean;
  /** `embedContent`. */
  embeddings: boolean;
}

/** What a provider gets when it builds a session's generator. */
export interface ProviderContext {
  /** The session's model id, with the provider prefix (e.g. `openai:gpt-4.1`), when one was chosen. */
  model: string | undefined;
  logger: Logger;
  env: Env;
}

/**
 * A model provider other than Gemini, plugged in through the one model port ({@link ContentGenerator}): the loop,
 * retries, the recorder and replay treat its generator like Gemini's. Requests and responses stay in the neutral
 * (Gemini) form; the provider maps them to its wire format and back. Make one with `openAICompatible()`, or
 * implement this interface for any other API.
 */
export interface ModelProvider {
  /** Short id, also the model prefix that routes to this provider (`openai` for `openai:gpt-4.1`). */
  readonly id: string;
  /** The model used when the agent names none (else `model` is required). */
  readonly defaultModel?: string;
  /** What the provider's models can do. */
  readonly capabilities: ProviderCapabilities;
  /** Builds the generator for one session. Credentials are checked here, so a missing key fails early. */
  createGenerator(context: ProviderContext): ContentGenerator | Promise<ContentGenerator>;
}

/** Splits `openai:gpt-4.1` into prefix and model; `undefined` prefix when the id has none. */
export function splitModelId(model: string): { prefix: string | undefined; name: string } {
  const m = /^([a-z][a-z0-9-]*):(.+)$/i.exec(model);
  return m
    ? { prefix: (m[1] as string).toLowerCase(), name: m[2] as string }
    : { prefix: undefined, name: model };
}
