/**
 * Bash quoting the parser does not resolve for us: ANSI-C strings (`$'\x72m'` is `rm`) and backslash-newline
 * line continuations (`r\<newline>m` is `rm` to bash, but tree-sitter-bash splits it into two words).
 */

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes the body of a `$'…'` string (without `$'` and `'`) the way bash does. */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i]!;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[i + 1]!;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i += 1;
      continue;
    }
    const hex = (max: number): string => {
      let digits = '';
      while (digits.length < max && /[0-9a-fA-F]/.test(body[i + 2 + digits.length] ?? '')) {
        digits += body[i + 2 + digits.length];
      }
      return digits;
    };
    if (next === 'x' || next === 'u' || next === 'U') {
      const digits = hex(next === 'x' ? 2 : next === 'u' ? 4 : 8);
      if (digits === '') {
        out += `\\${next}`;
        i += 1;
        continue;
      }
      out += String.fromCodePoint(Math.min(Number.parseInt(digits, 16), 0x10ffff));
      i += 1 + digits.length;
      continue;
    }
    if (/[0-7]/.test(next)) {
      let digits = '';
      while (digits.length < 3 && /[0-7]/.test(body[i + 1 + digits.length] ?? '')) {
        digits += body[i + 1 + digits.length];
      }
      out += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
      i += digits.length;
      continue;
    }
    if (next === 'c' && i + 2 < body.length) {
      out += String.fromCharCode(body.charCodeAt(i + 2) & 0x1f);
      i += 2;
      continue;
    }
    out += `\\${next}`;
    i += 1;
  }
  return out;
}

/**
 * The script with every backslash-newline outside single quotes (and outside `$'…'`) removed, as bash's
 * input layer does before it splits words. Comments keep theirs (a comment ends at the newline). The
 * policy checks this form as well as the original, so a continuation can neither split nor join a command
 * name to dodge a rule.
 */
export function joinLineContinuations(script: string): string {
  if (!script.includes('\\\n')) return script;
  let out = '';
  let quote: "'" | '"' | "$'" | undefined;
  let wordStart = true;
  for (let i = 0; i < script.length; i += 1) {
    const ch = script[i]!;
    if (quote === "'") {
      out += ch;
      if (ch === "'") quote = undefined;
      continue;
    }
    if (quote === "$'") {
      out += ch;
      if (ch === '\\' && i + 1 < script.length) out += script[++i];
      else if (ch === "'") quote = undefined;
      continue;
    }
    if (ch === '\\' && script[i + 1] === '\n') {
      i += 1;
      continue;
    }
    if (ch === '\\' && i + 1 < script.length) {
      out += ch + script[++i];
      wordStart = false;
      continue;
    }
    if (quote === '"') {
      out += ch;
      if (ch === '"') quote = undefined;
      continue;
    }
    if (ch === '#' && wordStart) {
      const end = script.indexOf('\n', i);
      const stop = end === -1 ? script.length : end;
      out += script.slice(i, stop);
      i = stop - 1;
      continue;
    }
    if (ch === "'") quote = "'";
    else if (ch === '"') quote = '"';
    else if (ch === '$' && script[i + 1] === "'") {
      quote = "$'";
      out += "$'";
      i += 1;
      wordStart = false;
      continue;
    }
    out += ch;
    wordStart = /[\s;&|()<>]/.test(ch);
  }
  return out;
}
