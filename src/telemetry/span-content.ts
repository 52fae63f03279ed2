/** The default longest content attribute, in characters. */
export const DEFAULT_MAX_CONTENT_LENGTH = 16_384;

/** Text for a content attribute: a string as is, anything else as JSON, cut to `max` characters. */
export function contentAttribute(value: unknown, max: number): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  if (text.length <= max) return text;
  return `${text.slice(0, max)}...[TRUNCATED: original length ${text.length}]`;
}

/** The message of a thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : contentAttribute(error, 1000);
}

/** `error.type` of a thrown value: its `code` (our typed errors), else its class name. */
export function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && name !== '') return name;
  }
  return '_OTHER';
}
