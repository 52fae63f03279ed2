import type { Part } from '@google/genai';

/**
 * A tool's parts as gemini-cli's `convertToFunctionResponse` sends them (ids and names are the caller's):
 * - a `functionResponse` part among them is passed through alone, re-keyed to this call;
 * - texts are joined with `\n` into `response.output`; other part kinds (function calls, …) are dropped;
 * - audio and video inline data cannot travel in a function response: they are dropped, and the output starts
 *   with `[SYSTEM: Binary content (<mime types>) stripped from response due to protocol limitations.]`;
 * - other inline data (images, PDFs) is nested as `functionResponse.parts` for models that take multimodal
 *   function responses (`gemini-3-*`), and sent as sibling parts after it otherwise; file data is always a
 *   sibling;
 * - with media but no text the output is `Binary content provided (<n> item(s)).`; with nothing at all the
 *   response is `{}`.
 *
 * (gemini-cli's `read_file` instead injects stripped audio/video into the next request; nothing here does.)
 */
export function functionResponseParts(
  id: string,
  name: string,
  content: readonly Part[],
  model: string | undefined,
): Part[] {
  const passthrough = content.find((p) => p.functionResponse !== undefined);
  if (passthrough?.functionResponse) {
    return [{ functionResponse: { id, name, response: passthrough.functionResponse.response } }];
  }
  const texts: string[] = [];
  const inline: Part[] = [];
  const files: Part[] = [];
  const stripped = new Set<string>();
  for (const part of content) {
    if (typeof part.text === 'string') texts.push(part.text);
    else if (part.inlineData) {
      const mime = part.inlineData.mimeType ?? '';
      if (mime.startsWith('audio/') || mime.startsWith('video/')) stripped.add(mime);
      else inline.push(part);
    } else if (part.fileData) files.push(part);
  }
  if (stripped.size > 0) {
    texts.unshift(
      `[SYSTEM: Binary content (${[...stripped].join(', ')}) stripped from response due to protocol limitations.]`,
    );
  }
  let response: Record<string, unknown> = texts.length > 0 ? { output: texts.join('\n') } : {};
  if (texts.length === 0 && inline.length + files.length > 0) {
    response = { output: `Binary content provided (${inline.length + files.length} item(s)).` };
  }
  const nested = inline.length > 0 && supportsMultimodalFunctionResponse(model);
  const main: Part = {
    functionResponse: { id, name, response, ...(nested ? { parts: inline } : {}) },
  };
  return [main, ...files, ...(nested ? [] : inline)];
}

/** gemini-cli's `supportsMultimodalFunctionResponse`: the Gemini 3 family takes media inside a function response. */
export function supportsMultimodalFunctionResponse(model: string | undefined): boolean {
  return model?.startsWith('gemini-3-') === true;
}
