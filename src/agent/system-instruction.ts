import type { SessionContext } from './types.js';

/**
 * Contributes one section to the system instruction (e.g. the skills block), evaluated with a fresh
 * {@link SessionContext} before every model call. Return undefined (or an empty string) for nothing.
 */
export type SystemSectionProvider = (
  ctx: SessionContext,
) => string | undefined | Promise<string | undefined>;

/**
 * Joins the provider sections (in order) and then the rendered instructions, separated by blank lines. Empty
 * pieces are skipped; nothing at all gives undefined, and the request then carries no `systemInstruction`.
 * The instructions text is included verbatim.
 */
export function composeSystemInstruction(
  sections: ReadonlyArray<string | undefined>,
  instructions: string | undefined,
): string | undefined {
  const pieces = [...sections, instructions].filter(
    (s): s is string => typeof s === 'string' && s.trim() !== '',
  );
  return pieces.length > 0 ? pieces.join('\n\n') : undefined;
}
