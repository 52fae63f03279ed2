import type {
  Content,
  ContentUnion,
  CountTokensParameters,
  CountTokensResponse,
  GenerateContentConfig,
  GenerateContentParameters,
  GenerateContentResponse,
  Part,
} from '@google/genai';
import { toContent, toContents } from '../contents.js';

/**
 * gemini-cli's Code Assist wire format (`code_assist/converter.ts`): a Gemini request is wrapped as
 * `{model, project, user_prompt_id, request: {contents, systemInstruction, tools, …, generationConfig,
 * session_id}}`, and every answer comes back as `{response: {candidates, usageMetadata, …}, traceId}`.
 */

/** The body of `:generateContent` / `:streamGenerateContent` (gemini-cli's `CAGenerateContentRequest`). */
export interface CaGenerateContentRequest {
  model: string;
  project?: string;
  user_prompt_id?: string;
  request: {
    contents: Content[];
    systemInstruction?: Content;
    cachedContent?: string;
    tools?: GenerateContentConfig['tools'];
    toolConfig?: GenerateContentConfig['toolConfig'];
    labels?: Record<string, string>;
    safetySettings?: GenerateContentConfig['safetySettings'];
    generationConfig?: Record<string, unknown>;
    session_id?: string;
  };
  enabled_credit_types?: string[];
}

/** One answer (or stream chunk) of the Code Assist API (gemini-cli's `CaGenerateContentResponse`). */
export interface CaGenerateContentResponse {
  response?: {
    candidates?: GenerateContentResponse['candidates'];
    automaticFunctionCallingHistory?: Content[];
    promptFeedback?: GenerateContentResponse['promptFeedback'];
    usageMetadata?: GenerateContentResponse['usageMetadata'];
    modelVersion?: string;
  };
  traceId?: string;
  consumedCredits?: Array<{ creditType: string; creditAmount: string }>;
  remainingCredits?: Array<{ creditType: string; creditAmount: string }>;
}

/** Wraps a Gemini request for the Code Assist API. */
export function toGenerateContentRequest(
  req: GenerateContentParameters,
  userPromptId: string,
  project?: string,
  sessionId?: string,
): CaGenerateContentRequest {
  const config = req.config;
  return {
    model: req.model,
    project,
    user_prompt_id: userPromptId,
    request: {
      contents: toContents(req.contents, markThought),
      systemInstruction: config?.systemInstruction
        ? toContent(config.systemInstruction as ContentUnion, markThought)
        : undefined,
      cachedContent: config?.cachedContent,
      tools: config?.tools,
      toolConfig: config?.toolConfig,
      labels: config?.labels,
      safetySettings: config?.safetySettings,
      generationConfig: toGenerationConfig(config),
      session_id: sessionId,
    },
  };
}

/** Unwraps one Code Assist answer into a Gemini response (`responseId` is the `traceId`). */
export function fromGenerateContentResponse(
  res: CaGenerateContentResponse,
): GenerateContentResponse {
  const inner = res.response;
  const out: Record<string, unknown> = {
    responseId: res.traceId,
    candidates: inner?.candidates ?? [],
  };
  if (inner) {
    out['automaticFunctionCallingHistory'] = inner.automaticFunctionCallingHistory;
    out['promptFeedback'] = inner.promptFeedback;
    out['usageMetadata'] = inner.usageMetadata;
    out['modelVersion'] = inner.modelVersion;
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out as unknown as GenerateContentResponse;
}

/** The body of `:countTokens`: `{request: {model: 'models/<model>', contents}}`. */
export function toCountTokenRequest(req: CountTokensParameters): {
  request: { model: string; contents: Content[] };
} {
  return {
    request: { model: `models/${req.model}`, contents: toContents(req.contents, markThought) },
  };
}

/** The answer of `:countTokens` (`totalTokens` defaults to 0, as gemini-cli). */
export function fromCountTokenResponse(res: { totalTokens?: number }): CountTokensResponse {
  return { totalTokens: res.totalTokens ?? 0 };
}

/**
 * gemini-cli's `toPart`: a thought part loses its `thought` flag (the API rejects it in requests); a thought
 * text part becomes `<text>\n[Thought: true]`.
 */
function markThought(part: Part): Part {
  if (!part.thought) return part;
  const { thought, ...rest } = part;
  const hasApiContent =
    'functionCall' in rest ||
    'functionResponse' in rest ||
    'inlineData' in rest ||
    'fileData' in rest;
  if (hasApiContent) return rest;
  const marker = `[Thought: ${String(thought)}]`;
  return { ...rest, text: rest.text ? `${rest.text}\n${marker}` : marker };
}

const GENERATION_KEYS = [
  'temperature',
  'topP',
  'topK',
  'candidateCount',
  'maxOutputTokens',
  'stopSequences',
  'responseLogprobs',
  'logprobs',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'routingConfig',
  'modelSelectionConfig',
  'responseModalities',
  'mediaResolution',
  'speechConfig',
  'audioTimestamp',
  'thinkingConfig',
] as const;

function toGenerationConfig(
  config: GenerateContentConfig | undefined,
): Record<string, unknown> | undefined {
  if (!config) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of GENERATION_KEYS) {
    if (config[key] !== undefined) out[key] = config[key];
  }
  return out;
}
