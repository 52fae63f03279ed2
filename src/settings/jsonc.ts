import { SettingsFileError } from './settings-errors.js';

/** A parsed JSON-with-comments document, and the 1-based line where each of its values starts. */
export interface JsoncDocument {
  value: unknown;
  /**
   * Line of the value at `path` (`[]` is the root; keys and list indices as in the value), or undefined when the
   * document has no value there.
   */
  lineOf(path: ReadonlyArray<string | number>): number | undefined;
}

/**
 * How deep objects and lists may nest. Real settings files nest about six levels; the limit keeps a hostile file
 * (100,000 opening brackets) from overflowing the stack of this parser or of the code that walks its result.
 */
export const MAX_JSONC_DEPTH = 100;

/**
 * Where the members of one object or list start: one offset per member (not an object per value, so a 5 MB list
 * costs numbers, not allocations), and the same for the members that are objects or lists themselves.
 */
interface Positions {
  readonly members: Map<string, number> | number[];
  readonly nested: Map<string | number, Positions>;
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
  /** Offsets of the newlines, ascending (for line numbers by binary search), found on first use. */
  private newlineOffsets: number[] | undefined;
  /** Positions of the members of the object or list the last {@link value} call parsed (undefined: neither). */
  private lastPositions: Positions | undefined;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  document(): JsoncDocument {
    this.skip();
    if (this.pos >= this.text.length) this.fail('the file is empty; write {} for no settings');
    const rootOffset = this.pos;
    const value = this.value(0);
    const root = this.lastPositions;
    this.skip();
    if (this.pos < this.text.length)
      this.fail(`unexpected ${this.describe()} after the end of the JSON value`);
    return {
      value,
      lineOf: (path) => {
        if (path.length === 0) return this.lineAt(rootOffset);
        let node = root;
        for (let i = 0; i < path.length - 1 && node !== undefined; i++) {
          node = node.nested.get(memberKey(node, path[i] as string | number));
        }
        if (node === undefined) return undefined;
        const key = memberKey(node, path[path.length - 1] as string | number);
        const offset = Array.isArray(node.members)
          ? node.members[key as number]
          : node.members.get(key as string);
        return offset === undefined ? undefined : this.lineAt(offset);
      },
    };
  }

  /** The value at `pos`, `depth` levels down. */
  private value(depth: number): unknown {
    this.lastPositions = undefined;
    const ch = this.text[this.pos];
    if ((ch === '{' || ch === '[') && depth >= MAX_JSONC_DEPTH)
      this.fail(`objects and lists nest deeper than ${MAX_JSONC_DEPTH} levels here`);
    if (ch === '{') return this.object(depth);
    if (ch === '[') return this.array(depth);
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

  private object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const members = new Map<string, number>();
    const positions: Positions = { members, nested: new Map() };
    this.pos++;
    this.skip();
    if (this.text[this.pos] === '}') {
      this.pos++;
      this.lastPositions = positions;
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
      members.set(key, this.pos);
      const value = this.value(depth + 1);
      if (this.lastPositions === undefined) positions.nested.delete(key);
      else positions.nested.set(key, this.lastPositions);
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skip();
      const next = this.text[this.pos];
      this.pos++;
      if (next === '}') {
        this.lastPositions = positions;
        return out;
      }
      if (next !== ',') {
        this.pos--;
        this.fail(`expected "," or "}" after the value of "${key}" but found ${this.describe()}`);
      }
    }
  }

  private array(depth: number): unknown[] {
    const out: unknown[] = [];
    const members: number[] = [];
    const positions: Positions = { members, nested: new Map() };
    this.pos++;
    this.skip();
    if (this.text[this.pos] === ']') {
      this.pos++;
      this.lastPositions = positions;
      return out;
    }
    for (;;) {
      this.skip();
      if (this.text[this.pos] === ']') this.fail('trailing comma before "]" (JSON allows none)');
      members.push(this.pos);
      out.push(this.value(depth + 1));
      if (this.lastPositions !== undefined)
        positions.nested.set(out.length - 1, this.lastPositions);
      this.skip();
      const next = this.text[this.pos];
      this.pos++;
      if (next === ']') {
        this.lastPositions = positions;
        return out;
      }
      if (next !== ',') {
        this.pos--;
        this.fail(`expected "," or "]" in the list but found ${this.describe()}`);
      }
    }
  }

  private string(): string {
    const start = this.pos;
    const text = this.text;
    // Plain: no escape and no control character, so the characters between the quotes are the string.
    let plain = true;
    this.pos++;
    for (;;) {
      const code = text.charCodeAt(this.pos);
      if (Number.isNaN(code) || code === 10) {
        this.pos = start;
        this.fail('unterminated string');
      }
      if (code === 92) {
        plain = false;
        this.pos += 2;
      } else if (code === 34) break;
      else {
        if (code < 32) plain = false;
        this.pos++;
      }
    }
    this.pos++;
    if (plain) return text.slice(start + 1, this.pos - 1);
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
    let newlines = this.newlineOffsets;
    if (newlines === undefined) {
      newlines = [];
      const text = this.text;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines.push(i);
      this.newlineOffsets = newlines;
    }
    let low = 0;
    let high = newlines.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((newlines[mid] ?? 0) < pos) low = mid + 1;
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

/** The key of `part` in a member table: list indices as numbers, object keys as strings. */
function memberKey(node: Positions, part: string | number): string | number {
  return Array.isArray(node.members) ? Number(part) : String(part);
}
