import { parseYaml } from '../core/yaml.js';

/**
 * gemini-cli's frontmatter pattern: the file starts with `---` and a newline (LF or CRLF), the YAML block runs
 * lazily to the next line starting `---`, and the body is whatever follows the newline after it.
 */
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/;

/** Characters gemini-cli replaces with `-` in skill names (they are unsafe in file and directory names). */
const UNSAFE_NAME_CHARS = /[:\\/<>*?"|]/g;

/** The parts of a `SKILL.md` file the SDK uses. */
export interface ParsedSkillMarkdown {
  /** Raw frontmatter name (not yet sanitised). */
  name: string;
  description: string;
  /** Trimmed body; `''` when the file has none. */
  body: string;
}

/** Result of {@link parseSkillMarkdown}: the parts, or why the text is not a skill. */
export type SkillMarkdownParse =
  { ok: true; value: ParsedSkillMarkdown } | { ok: false; reason: string };

/**
 * Replaces every character of `: \ / < > * ? " |` with `-`, exactly as gemini-cli's loader does. Nothing
 * else is checked or changed (spaces and upper case are kept).
 */
export function sanitizeSkillName(name: string): string {
  return name.replace(UNSAFE_NAME_CHARS, '-');
}

/**
 * Parses the text of a `SKILL.md` file as gemini-cli does: YAML frontmatter first; when the YAML is invalid
 * or lacks a string `name` or `description`, the line-based fallback parser (which accepts unquoted
 * descriptions containing `: `). Other frontmatter keys are ignored.
 */
export function parseSkillMarkdown(content: string): SkillMarkdownParse {
  const match = FRONTMATTER.exec(content);
  if (!match) {
    return {
      ok: false,
      reason: 'no YAML frontmatter (the file must start with a "---" line and close it with "---")',
    };
  }
  const block = match[1] ?? '';
  const fields = parseYamlFields(block) ?? parseSimpleFields(block);
  if (!fields) {
    return {
      ok: false,
      reason: 'the frontmatter must define both "name" and "description" as text',
    };
  }
  if (fields.name.trim() === '') {
    return { ok: false, reason: 'the frontmatter "name" is empty' };
  }
  return { ok: true, value: { ...fields, body: (match[2] ?? '').trim() } };
}

function parseYamlFields(block: string): { name: string; description: string } | undefined {
  let parsed: unknown;
  try {
    parsed = parseYaml(block);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record = parsed as Record<string, unknown>;
  const { name, description } = record;
  if (typeof name === 'string' && typeof description === 'string') return { name, description };
  return undefined;
}

/**
 * gemini-cli's fallback: `name:` sets the name (trimmed, quotes kept, last one wins); `description:` starts the
 * description and indented lines right after it continue it (trimmed, empty parts dropped, joined by spaces).
 */
function parseSimpleFields(block: string): { name: string; description: string } | undefined {
  const lines = block.split(/\r?\n/);
  let name: string | undefined;
  let description: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const nameMatch = /^\s*name:\s*(.*)$/.exec(line);
    if (nameMatch) {
      name = (nameMatch[1] ?? '').trim();
      continue;
    }
    const descriptionMatch = /^\s*description:\s*(.*)$/.exec(line);
    if (descriptionMatch) {
      const parts = [(descriptionMatch[1] ?? '').trim()];
      while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1] ?? '')) {
        parts.push((lines[i + 1] ?? '').trim());
        i++;
      }
      description = parts.filter(Boolean).join(' ');
    }
  }
  if (name === undefined || description === undefined) return undefined;
  return { name, description };
}
