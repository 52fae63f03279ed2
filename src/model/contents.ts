import type { Content, ContentListUnion, ContentUnion, Part, PartUnion } from '@google/genai';

/**
 * Normalising the request shapes `@google/genai` accepts (`ContentListUnion`: a string, parts, a Content or a
 * list of them) into `Content[]`, as the official client does. Shared by the adapters that do not go through
 * the official client (Code Assist, OpenAI-compatible).
 */

/** Any `ContentListUnion` as `Content[]`; `mapPart` (default: as is) transforms every part. */
export function toContents(
  contents: ContentListUnion,
  mapPart: (part: Part) => Part = (p) => p,
): Content[] {
  if (Array.isArray(contents)) return contents.map((c) => toContent(c as ContentUnion, mapPart));
  return [toContent(contents as ContentUnion, mapPart)];
}

function isPart(c: ContentUnion): c is PartUnion {
  return (
    typeof c === 'object' && c !== null && !Array.isArray(c) && !('parts' in c) && !('role' in c)
  );
}

/** One `ContentUnion` as a `Content` (strings and parts become a `user` turn). */
export function toContent(
  content: ContentUnion,
  mapPart: (part: Part) => Part = (p) => p,
): Content {
  const part = (p: PartUnion): Part => mapPart(typeof p === 'string' ? { text: p } : p);
  if (Array.isArray(content)) return { role: 'user', parts: content.map(part) };
  if (typeof content === 'string') return { role: 'user', parts: [part(content)] };
  if (!isPart(content)) {
    return {
      ...content,
      parts: content.parts ? content.parts.filter((p) => p != null).map(part) : [],
    };
  }
  return { role: 'user', parts: [part(content)] };
}
