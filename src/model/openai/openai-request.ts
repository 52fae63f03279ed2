import type {
  Content,
  ContentUnion,
  FunctionDeclaration,
  GenerateContentConfig,
  GenerateContentParameters,
  Part,
  Tool,
} from '@google/genai';
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions/completions';
import { ModelCapabilityError } from '../../errors.js';
import { toContent, toContents } from '../contents.js';
import { geminiSchemaToJsonSchema } from './gemini-schema.js';

/** How a Gemini request maps onto one provider's Chat Completions API. */
export interface ChatRequestOptions {
  /** The provider id, for error messages (`openai`). */
  provider: string;
  /** The model name as the server knows it (the prefix removed). */
  model: string;
  /** `max_completion_tokens` (OpenAI) or `max_tokens` (most compatible servers) for `maxOutputTokens`. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Called once per request setting that has no equivalent and is dropped (e.g. `topK`). */
  dropped: (setting: string) => void;
}

/** The Chat Completions body of a Gemini request (without `stream`). */
export type ChatRequest = Omit<ChatCompletionCreateParamsBase, 'stream'>;

/** The placeholder signature the loop puts on unsigned function calls (gemini-cli's value). */
const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

const GROUNDING_TOOLS: Record<string, string> = {
  googleSearch: 'grounding',
  googleSearchRetrieval: 'grounding',
  googleMaps: 'grounding',
  enterpriseWebSearch: 'grounding',
  retrieval: 'grounding',
  fileSearch: 'grounding',
  codeExecution: 'codeExecution',
  urlContext: 'urlContext',
  computerUse: 'computerUse',
};

/**
 * Maps a Gemini request (`contents`, `systemInstruction`, `tools`, `toolConfig`, generation settings) to a Chat
 * Completions request:
 *
 * - `systemInstruction` → a leading `system` message;
 * - user text and images/audio/PDF (`inlineData`, http(s) `fileData` images) → `user` messages;
 * - model text and `functionCall`s → `assistant` messages with `tool_calls` (`arguments` as JSON);
 * - `functionResponse`s → `tool` messages (`tool_call_id`; the content is `output` when that is all, else the
 *   JSON of `response`); an id the history lacks is paired with the open call of the same name;
 * - thought parts and thought signatures are Gemini's own and are dropped.
 *
 * @throws ModelCapabilityError for what Chat Completions cannot carry: Gemini's built-in tools (Google Search
 *   grounding, code execution, URL context…), `cachedContent`, more than one candidate, non-text response
 *   modalities, speech, file URIs and media types other than image, audio and PDF.
 */
export function toChatRequest(
  req: GenerateContentParameters,
  options: ChatRequestOptions,
): ChatRequest {
  const config = req.config ?? {};
  const unsupported = (capability: string, what: string): never => {
    throw new ModelCapabilityError(
      `${what} is not available with the ${options.provider} provider: remove it from the request, or use a ` +
        'Gemini model for it.',
      { provider: options.provider, capability },
    );
  };
  if (config.cachedContent) unsupported('cachedContent', 'cachedContent (Gemini context caching)');
  if ((config.candidateCount ?? 1) > 1) unsupported('candidateCount', 'candidateCount > 1');
  if (config.responseModalities?.some((m) => String(m).toUpperCase() !== 'TEXT')) {
    unsupported(
      'responseModalities',
      `responseModalities ${JSON.stringify(config.responseModalities)}`,
    );
  }
  if (config.speechConfig) unsupported('speech', 'speechConfig (audio output)');

  const messages: ChatCompletionMessageParam[] = [];
  const system = config.systemInstruction
    ? textOf(toContent(config.systemInstruction as ContentUnion))
    : '';
  if (system !== '') messages.push({ role: 'system', content: system });
  const ids = new CallIds();
  for (const content of toContents(req.contents)) {
    if (content.role === 'model')
      messages.push(assistantMessage(content, ids, options, unsupported));
    else messages.push(...userMessages(content, ids, unsupported));
  }

  const body: ChatRequest = { model: options.model, messages };
  const tools = toChatTools(config.tools, unsupported);
  if (tools.length > 0) {
    body.tools = tools;
    const choice = toolChoice(config.toolConfig);
    if (choice !== undefined) body.tool_choice = choice;
  }
  applyGenerationConfig(body, config, options);
  return body;
}

/** Pairs function responses with the calls they answer when the history carries no ids. */
class CallIds {
  private counter = 0;
  private readonly open: Array<{ id: string; name: string }> = [];

  call(id: string | undefined, name: string): string {
    const callId = id || `call_${this.counter++}`;
    this.open.push({ id: callId, name });
    return callId;
  }

  response(id: string | undefined, name: string | undefined): string {
    const index = id
      ? this.open.findIndex((c) => c.id === id)
      : this.open.findIndex((c) => c.name === name);
    if (index >= 0) return (this.open.splice(index, 1)[0] as { id: string }).id;
    return id || `call_${this.counter++}`;
  }
}

function textOf(content: Content): string {
  return (content.parts ?? [])
    .filter((p) => typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text as string)
    .join('\n');
}

function assistantMessage(
  content: Content,
  ids: CallIds,
  options: ChatRequestOptions,
  unsupported: (capability: string, what: string) => never,
): ChatCompletionMessageParam {
  const texts: string[] = [];
  const calls: ChatCompletionMessageToolCall[] = [];
  for (const part of content.parts ?? []) {
    // Signatures belong to Gemini; the loop's placeholder for unsigned calls is not worth a warning.
    if (part.thoughtSignature && part.thoughtSignature !== SKIP_THOUGHT_SIGNATURE) {
      options.dropped('thought signatures');
    }
    if (part.thought === true) continue;
    if (part.functionCall) {
      const name = part.functionCall.name ?? '';
      calls.push({
        id: ids.call(part.functionCall.id, name),
        type: 'function',
        function: { name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    } else if (typeof part.text === 'string') {
      texts.push(part.text);
    } else if (part.executableCode || part.codeExecutionResult) {
      unsupported('codeExecution', 'Code execution results in the history');
    } else if (part.inlineData || part.fileData) {
      options.dropped('media in model turns');
    }
  }
  return {
    role: 'assistant',
    content: texts.length > 0 ? texts.join('') : null,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

function userMessages(
  content: Content,
  ids: CallIds,
  unsupported: (capability: string, what: string) => never,
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const parts: ChatCompletionContentPart[] = [];
  for (const part of content.parts ?? []) {
    if (part.thought === true) continue;
    if (part.functionResponse) {
      const r = part.functionResponse;
      out.push({
        role: 'tool',
        tool_call_id: ids.response(r.id, r.name),
        content: toolOutput(r.response),
      });
      for (const nested of r.parts ?? []) parts.push(...mediaPart(nested as Part, unsupported));
    } else if (typeof part.text === 'string') {
      parts.push({ type: 'text', text: part.text });
    } else {
      parts.push(...mediaPart(part, unsupported));
    }
  }
  if (parts.length > 0) {
    const onlyText = parts.every((p) => p.type === 'text');
    out.push({
      role: 'user',
      content: onlyText ? parts.map((p) => (p as { text: string }).text).join('\n') : parts,
    });
  }
  return out;
}

function toolOutput(response: Record<string, unknown> | undefined): string {
  if (response === undefined) return '';
  const keys = Object.keys(response);
  if (keys.length === 1 && keys[0] === 'output' && typeof response['output'] === 'string') {
    return response['output'];
  }
  return JSON.stringify(response);
}

const AUDIO_FORMATS: Record<string, 'wav' | 'mp3'> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
};

function mediaPart(
  part: Part,
  unsupported: (capability: string, what: string) => never,
): ChatCompletionContentPart[] {
  if (part.inlineData) {
    const mime = (part.inlineData.mimeType ?? '').toLowerCase();
    const data = part.inlineData.data ?? '';
    if (mime.startsWith('image/')) {
      return [{ type: 'image_url', image_url: { url: `data:${mime};base64,${data}` } }];
    }
    const audio = AUDIO_FORMATS[mime];
    if (audio) return [{ type: 'input_audio', input_audio: { data, format: audio } }];
    if (mime === 'application/pdf') {
      return [
        {
          type: 'file',
          file: {
            file_data: `data:${mime};base64,${data}`,
            filename: part.inlineData.displayName ?? 'file.pdf',
          },
        },
      ];
    }
    return unsupported('media', `Inline data of type ${mime || 'unknown'}`);
  }
  if (part.fileData) {
    const uri = part.fileData.fileUri ?? '';
    if ((part.fileData.mimeType ?? '').startsWith('image/') && /^https?:\/\//i.test(uri)) {
      return [{ type: 'image_url', image_url: { url: uri } }];
    }
    return unsupported('fileData', `A file reference (${uri || 'fileData'})`);
  }
  if (part.executableCode || part.codeExecutionResult) {
    return unsupported('codeExecution', 'Code execution parts');
  }
  return [];
}

function toChatTools(
  tools: GenerateContentConfig['tools'],
  unsupported: (capability: string, what: string) => never,
): ChatCompletionTool[] {
  const out: ChatCompletionTool[] = [];
  for (const tool of (tools ?? []) as Tool[]) {
    for (const [key, capability] of Object.entries(GROUNDING_TOOLS)) {
      if ((tool as Record<string, unknown>)[key] !== undefined) {
        unsupported(capability, `Gemini's built-in ${key} tool`);
      }
    }
    for (const fd of tool.functionDeclarations ?? []) out.push(functionTool(fd));
  }
  return out;
}

function functionTool(fd: FunctionDeclaration): ChatCompletionTool {
  let parameters: Record<string, unknown>;
  if (fd.parametersJsonSchema !== undefined) {
    const { $schema: _schema, ...rest } = fd.parametersJsonSchema as Record<string, unknown>;
    parameters = rest;
  } else if (fd.parameters !== undefined) {
    parameters = geminiSchemaToJsonSchema(fd.parameters);
  } else {
    parameters = { type: 'object', properties: {} };
  }
  return {
    type: 'function',
    function: {
      name: fd.name ?? '',
      ...(fd.description ? { description: fd.description } : {}),
      parameters,
    },
  };
}

function toolChoice(
  config: GenerateContentConfig['toolConfig'],
): ChatCompletionToolChoiceOption | undefined {
  const fc = config?.functionCallingConfig;
  const mode = String(fc?.mode ?? '').toUpperCase();
  if (mode === 'NONE') return 'none';
  if (mode === 'ANY') {
    const only = fc?.allowedFunctionNames;
    return only?.length === 1
      ? { type: 'function', function: { name: only[0] as string } }
      : 'required';
  }
  if (mode === 'AUTO' || mode === 'VALIDATED') return 'auto';
  return undefined;
}

function applyGenerationConfig(
  body: ChatRequest,
  config: GenerateContentConfig,
  options: ChatRequestOptions,
): void {
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.topP !== undefined) body.top_p = config.topP;
  if (config.maxOutputTokens !== undefined) body[options.maxTokensField] = config.maxOutputTokens;
  if (config.stopSequences?.length) body.stop = config.stopSequences;
  if (config.seed !== undefined) body.seed = config.seed;
  if (config.presencePenalty !== undefined) body.presence_penalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) body.frequency_penalty = config.frequencyPenalty;
  if (config.responseLogprobs) {
    body.logprobs = true;
    if (config.logprobs !== undefined) body.top_logprobs = config.logprobs;
  }
  const schema =
    config.responseJsonSchema ??
    (config.responseSchema !== undefined
      ? geminiSchemaToJsonSchema(config.responseSchema)
      : undefined);
  if (schema !== undefined) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: 'response', schema: schema as Record<string, unknown> },
    };
  } else if (config.responseMimeType === 'application/json') {
    body.response_format = { type: 'json_object' };
  }
  if (config.topK !== undefined) options.dropped('topK');
  if (config.safetySettings?.length) options.dropped('safetySettings');
  if (config.thinkingConfig !== undefined) options.dropped('thinkingConfig');
  if (config.mediaResolution !== undefined) options.dropped('mediaResolution');
}
