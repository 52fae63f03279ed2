import { SettingsFileError } from './settings-errors.js';

/** A parsed JSON-with-comments document and the 1-based line where each value starts. */
export interface JsoncDocument {
  value: unknown;
  /** Line of each value, keyed by {@link pathKey} of its path (`[]` is the root). */
  lines: ReadonlyMap<string, number>;
}

/**
 * How deep objects and lists may nest. Real settings files nest about six levels; the limit keeps a hostile file
 * (100,000 opening brackets) from overflowing the stack of this parser or of the code that walks its result.
 */
export const MAX_JSONC_DEPTH = 100;

/** The key under which {@link JsoncDocument.lines} stores a path. */
export function pathKey(path: ReadonlyArray<string | number>): string {
  return JSON.stringify(path);
}

/**
 * Parses JSON with `//` and `/* *\/` comments, as gemini-cli reads settings files (comments are stripped, then
 * the text must be strict JSON: no trailing commas, no single quotes). A leading BOM is ignored. Duplicate keys:
 * the last one wins, like `JSON.parse`. Keys such as `__proto__` become plain own properties. Objects and lists
 * nest at most {@link MAX_JSONC_DEPTH} levels.
 *
 * @throws SettingsFileError naming the file, line and column of the first syntax error, or of the value that
 *   nests too deeply.
 */
export function parseJsonc(text: string, file: string): JsoncDocument {
  return new Parser(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, file).document();
}

class Parser {
  private pos = 0;
  private readonly lines = new Map<string, number>();
  /** Offsets of the newlines, ascending (for line numbers by binary search). */
  private readonly newlines: number[] = [];

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.newlines.push(i);
  }

  document(): JsoncDocument {
    this.skip();
    if (this.pos >= this.text.length) this.fail('the file is empty; write {} for no settings');
    const value = this.value([]);
    this.skip();
    if (this.pos < this.text.length)
      this.fail(`unexpected ${this.describe()} after the end of the JSON value`);
    return { value, lines: this.lines };
  }

  private value(path: Array<string | number>): unknown {
    this.lines.set(pathKey(path), this.lineAt(this.pos));
    const ch = this.text[this.pos];
    if ((ch === '{' || ch === '[') && path.length >= MAX_JSONC_DEPTH)
      this.fail(`objects and lists nest deeper than ${MAX_JSONC_DEPTH} levels here`);
    if (ch === '{') return this.object(path);
    if (ch === '[') return this.array(path);
    if (ch === '"') return this.string();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.number();
    for (const [word, result] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return result;
      }
    }
    if (ch === "'") this.fail('strings must use double quotes (")');
    return this.fail(`expected a value but found ${this.describe()}`);
  }

  private object(path: Array<string | number>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    this.skip();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skip();
      if (this.text[this.pos] !== '"') {
        this.fail(
          this.text[this.pos] === '}'
            ? 'trailing comma before "}" (JSON allows none)'
            : `expected a property name in double quotes but found ${this.describe()}`,
        );
      }
      const key = this.string();
      this.skip();
      if (this.text[this.pos] !== ':')
        this.fail(`expected ":" after "${key}" but found ${this.describe()}`);
      this.pos++;
      this.skip();
      const value = this.value([...path, key]);
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skip();
      const next = this.text[this.pos];
      this.pos++;
      if (next === '}') return out;
      if (next !== ',') {
        this.pos--;
        this.fail(`expected "," or "}" after the value of "${key}" but found ${this.describe()}`);
      }
    }
  }

  private array(path: Array<string | number>): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    this.skip();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skip();
      if (this.text[this.pos] === ']') this.fail('trailing comma before "]" (JSON allows none)');
      out.push(this.value([...path, out.length]));
      this.skip();
      const next = this.text[this.pos];
      this.pos++;
      if (next === ']') return out;
      if (next !== ',') {
        this.pos--;
        this.fail(`expected "," or "]" in the list but found ${this.describe()}`);
      }
    }
  }

  private string(): string {
    const start = this.pos;
    this.pos++;
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined || ch === '\n') {
        this.pos = start;
        this.fail('unterminated string');
      }
      if (ch === '\\') this.pos += 2;
      else if (ch === '"') break;
      else this.pos++;
    }
    this.pos++;
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      this.pos = start;
      return this.fail('invalid escape sequence or control character in string');
    }
  }

  private number(): number {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.pos));
    if (!match) return this.fail(`invalid number ${this.describe()}`);
    this.pos += match[0].length;
    return Number(match[0]);
  }

  /** Skips whitespace and comments. */
  private skip(): void {
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') this.pos++;
      else if (ch === '/' && this.text[this.pos + 1] === '/') {
        while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.pos++;
      } else if (ch === '/' && this.text[this.pos + 1] === '*') {
        const end = this.text.indexOf('*/', this.pos + 2);
        if (end === -1) this.fail('unterminated /* comment');
        this.pos = end + 2;
      } else return;
    }
  }

  private describe(): string {
    if (this.pos >= this.text.length) return 'the end of the file';
    return JSON.stringify(this.text.slice(this.pos, this.pos + 12).split('\n')[0]);
  }

  /** 1-based line of an offset: one more than the number of newlines before it. */
  private lineAt(pos: number): number {
    let low = 0;
    let high = this.newlines.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.newlines[mid] ?? 0) < pos) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  }

  private fail(reason: string): never {
    const line = this.lineAt(this.pos);
    const column = this.pos - this.text.lastIndexOf('\n', this.pos - 1);
    throw new SettingsFileError(
      `Invalid JSON in ${this.file} at line ${line}, column ${column}: ${reason}. Fix the file and try again.`,
      { file: this.file, line, column },
    );
  }
}
