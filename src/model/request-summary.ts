import type { Content, Part } from '@google/genai';

/** Longest quoted text a summary shows of one part. */
const MAX_QUOTED = 160;

/**
 * A one-line description of a model request, for error messages: the model, how many contents, what the last
 * content holds (text quoted and shortened, function calls and responses by name, media by MIME type), and how
 * much was left out (tool declarations, system instruction). Never the whole request: a real one carries kilobytes
 * of tool declarations.
 *
 * @example `model "gemini-2.5-pro", 3 contents, the last (user): functionResponse list_directory; not shown: 14
 * tool declarations, a 9,870-character system instruction`
 */
export function summarizeRequest(request: unknown): string {
  if (typeof request !== 'object' || request === null) return 'a request with no body';
  const r = request as { model?: unknown; contents?: unknown; config?: unknown };
  const pieces: string[] = [];
  if (typeof r.model === 'string') pieces.push(`model "${r.model}"`);
  const contents = normalizeContents(r.contents);
  pieces.push(`${contents.length} content${contents.length === 1 ? '' : 's'}`);
  const last = contents.at(-1);
  if (last !== undefined) {
    pieces.push(
      `the last (${last.role ?? 'user'}): ${(last.parts ?? []).map(describePart).join(', ')}`,
    );
  }
  const hidden = hiddenParts(r.config);
  return pieces.join(', ') + (hidden.length > 0 ? `; not shown: ${hidden.join(', ')}` : '');
}

/** `contents` in any of the SDK's accepted forms (string, Part, Part[], Content, Content[]) as Content[]. */
function normalizeContents(contents: unknown): Content[] {
  if (contents === undefined || contents === null) return [];
  if (typeof contents === 'string') return [{ role: 'user', parts: [{ text: contents }] }];
  const list = Array.isArray(contents) ? (contents as unknown[]) : [contents];
  if (list.every((c) => isContent(c))) return list as Content[];
  const parts = list.map((p) => (typeof p === 'string' ? { text: p } : (p as Part)));
  return [{ role: 'user', parts }];
}

function isContent(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'parts' in value;
}

function describePart(part: Part): string {
  if (typeof part !== 'object' || part === null) return 'an empty part';
  if (typeof part.text === 'string') return `${part.thought ? 'thought ' : ''}${quote(part.text)}`;
  if (part.functionCall) return `functionCall ${part.functionCall.name ?? '?'}`;
  if (part.functionResponse) return `functionResponse ${part.functionResponse.name ?? '?'}`;
  if (part.inlineData) return `inlineData ${part.inlineData.mimeType ?? '?'}`;
  if (part.fileData) return `fileData ${part.fileData.fileUri ?? '?'}`;
  return `a part with ${Object.keys(part).join(', ') || 'no fields'}`;
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > MAX_QUOTED ? `${line.slice(0, MAX_QUOTED)}…` : line);
}

function hiddenParts(config: unknown): string[] {
  if (typeof config !== 'object' || config === null) return [];
  const c = config as { tools?: unknown; systemInstruction?: unknown };
  const hidden: string[] = [];
  let declarations = 0;
  if (Array.isArray(c.tools)) {
    for (const tool of c.tools as Array<{ functionDeclarations?: unknown }>) {
      if (Array.isArray(tool?.functionDeclarations))
        declarations += tool.functionDeclarations.length;
    }
  }
  if (declarations > 0) {
    hidden.push(`${declarations} tool declaration${declarations === 1 ? '' : 's'}`);
  }
  const system = systemText(c.systemInstruction);
  if (system > 0) hidden.push(`a ${system.toLocaleString('en-US')}-character system instruction`);
  return hidden;
}

function systemText(instruction: unknown): number {
  if (typeof instruction === 'string') return instruction.length;
  if (typeof instruction !== 'object' || instruction === null) return 0;
  const parts = Array.isArray(instruction)
    ? (instruction as Part[])
    : ((instruction as Content).parts ?? [instruction as Part]);
  return parts.reduce((n, p) => n + (typeof p?.text === 'string' ? p.text.length : 0), 0);
}
