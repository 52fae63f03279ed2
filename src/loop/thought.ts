import type { ThoughtSummary } from '../events.js';

/**
 * Parses a thought part as gemini-cli does: the first `**…**` is the subject, everything else (trimmed) the
 * description. Without a bold span the subject is empty.
 */
export function parseThought(text: string): ThoughtSummary {
  const start = text.indexOf('**');
  const end = start === -1 ? -1 : text.indexOf('**', start + 2);
  if (start === -1 || end === -1) return { subject: '', description: text.trim() };
  return {
    subject: text.slice(start + 2, end).trim(),
    description: (text.slice(0, start) + text.slice(end + 2)).trim(),
  };
}
