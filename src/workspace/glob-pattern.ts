import { compileLinearRegex } from '../linear-regex.js';

/** Options for {@link compileGlob}. */
export interface CompileGlobOptions {
  /** Let wildcards match names starting with a dot (default true). */
  dot?: boolean;
  /** Match case-sensitively (default true). */
  caseSensitive?: boolean;
}

/** A compiled glob: a matcher for `/`-separated relative paths, plus what the walker needs. */
export interface CompiledGlob {
  /** True when the relative path matches. */
  test(relativePath: string): boolean;
  /** Leading segments without wildcards (where the walk can start), joined with `/`. */
  readonly base: string;
  /** Deepest number of segments below `base` a match can have (Infinity with `**`). */
  readonly maxDepth: number;
}

/** Expands `{a,b}` alternatives (nested allowed) into separate patterns. */
export function expandBraces(pattern: string): string[] {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i];
    if (ch === '\\') {
      i += 1;
    } else if (ch === '{') {
      if (depth === 0) open = i;
      depth += 1;
    } else if (ch === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) {
        const inner = pattern.slice(open + 1, i);
        const alternatives = splitTopLevel(inner);
        if (alternatives.length < 2) continue;
        const head = pattern.slice(0, open);
        const tail = pattern.slice(i + 1);
        return alternatives.flatMap((alt) => expandBraces(head + alt + tail));
      }
    }
  }
  return [pattern];
}

function splitTopLevel(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i += 1) {
    const ch = inner[i];
    if (ch === '\\') i += 1;
    else if (ch === '{') depth += 1;
    else if (ch === '}') depth -= 1;
    else if (ch === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}

const MAGIC = /[*?[\]{}]/;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Translates one path segment (no `/`) to a regex source. */
function segmentSource(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i += 1) {
    const ch = segment.charAt(i);
    if (ch === '\\' && i + 1 < segment.length) {
      i += 1;
      out += escapeRegex(segment.charAt(i));
    } else if (ch === '*') {
      while (segment[i + 1] === '*') i += 1;
      out += '[^/]*';
    } else if (ch === '?') {
      out += '[^/]';
    } else if (ch === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = segment.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^/' : ''}${body.replace(/\\/g, '\\\\').replace(/\]/g, '\\]')}]`;
      i = close;
    } else {
      out += escapeRegex(ch);
    }
  }
  return out;
}

function compileSingle(pattern: string, dot: boolean): string {
  const segments = pattern
    .split('/')
    .filter((s, i, all) => s !== '' || i === 0 || i === all.length - 1);
  // A whole segment other than `.` / `..` (dot) or not starting with `.` (no dot), without lookaround.
  const anySegment = dot ? '(?:[^/.][^/]*|\\.[^/.][^/]*|\\.\\.[^/]+)' : '[^/.][^/]*';
  let source = '';
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '**') {
      source += last ? `(?:${anySegment}/)*${anySegment}` : `(?:${anySegment}/)*`;
    } else {
      source += segmentSource(segment) + (last ? '' : '/');
    }
  });
  return source;
}

/**
 * Compiles a glob (`*`, `?`, `[…]`, `[!…]`, `{a,b}`, `**`) matching `/`-separated relative paths. Patterns are
 * normalised: a leading `./` is dropped and backslashes before ordinary characters escape them.
 */
export function compileGlob(pattern: string, options: CompileGlobOptions = {}): CompiledGlob {
  const dot = options.dot ?? true;
  const normalised = pattern.replace(/^(?:\.\/)+/, '');
  const alternatives = expandBraces(normalised);
  // Globs come from the model and from ignore files: matched on the linear-time engine, never backtracking.
  const regex = compileLinearRegex(
    `^(?:${alternatives.map((alt) => compileSingle(alt, dot)).join('|')})$`,
    { ignoreCase: options.caseSensitive === false },
  );
  // Without `dot`, paths with a segment starting with `.` only match patterns that name a `.` segment.
  const namesDotSegment = alternatives.some((alt) =>
    alt.split('/').some((seg) => seg.startsWith('.')),
  );
  const dotAllowed = (relativePath: string): boolean =>
    dot || namesDotSegment || !relativePath.split('/').some((seg) => seg.startsWith('.'));
  const segments = normalised.split('/');
  const baseSegments: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (MAGIC.test(segment) || segment.includes('\\')) break;
    baseSegments.push(segment);
  }
  const rest = segments.slice(baseSegments.length);
  const maxDepth = alternatives.some((alt) => alt.split('/').includes('**'))
    ? Infinity
    : Math.max(...alternatives.map((alt) => alt.split('/').length)) - baseSegments.length;
  return {
    test: (relativePath) => regex.test(relativePath) && dotAllowed(relativePath),
    base: baseSegments.join('/') || (normalised.startsWith('/') ? '/' : ''),
    maxDepth: rest.length === 0 ? 0 : maxDepth,
  };
}

/** True when the text contains glob wildcards. */
export function hasGlobMagic(text: string): boolean {
  return MAGIC.test(text);
}
