import type { CliIo } from './cli-io.js';
import type { StdinLike } from './read-stdin.js';

/** Reads stdin line by line across several questions (lines that arrive early wait for the next question). */
export class LineReader {
  private buffer = '';
  private ended = false;
  private waiting: ((line: string | undefined) => void) | undefined;
  private started = false;
  /** Takes the input while a terminal line is read in raw mode (`undefined`: the input ended). */
  private raw: ((chunk: string | undefined) => void) | undefined;

  constructor(private readonly stdin: StdinLike) {}

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.stdin.setEncoding('utf8');
    this.stdin.on('data', (chunk) => {
      if (this.raw) return this.raw(chunk);
      this.buffer += chunk;
      this.flush();
    });
    const end = () => {
      this.ended = true;
      this.raw?.(undefined);
      this.flush();
    };
    this.stdin.on('end', end);
    this.stdin.on('close', end);
    this.stdin.on('error', end);
  }

  private flush(): void {
    if (this.waiting === undefined) return;
    const newline = this.buffer.indexOf('\n');
    let line: string | undefined;
    if (newline >= 0) {
      line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
    } else if (this.ended) {
      line = this.buffer === '' ? undefined : this.buffer;
      this.buffer = '';
    } else return;
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve(line);
  }

  /** The next line, or undefined at the end of input. */
  next(): Promise<string | undefined> {
    this.start();
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.flush();
    });
  }

  /**
   * One line typed on a terminal, read in raw mode: each character is echoed with `echo` (`*` when `hidden`),
   * Backspace erases one, Enter ends the line. Ctrl-C, Esc, Ctrl-D on an empty line and the end of input cancel
   * it (undefined). What is typed after Enter stays for the next read.
   */
  readTerminalLine(echo: (text: string) => void, hidden: boolean): Promise<string | undefined> {
    this.start();
    this.stdin.setRawMode?.(true);
    return new Promise((resolve) => {
      let value = '';
      let finished = false;
      const done = (result: string | undefined, rest = '') => {
        finished = true;
        this.raw = undefined;
        this.buffer = rest + this.buffer;
        this.stdin.setRawMode?.(false);
        echo('\n');
        resolve(result);
      };
      this.raw = (chunk) => {
        if (chunk === undefined) return done(undefined);
        // An escape sequence (arrow keys, function keys) is ignored; Esc alone cancels.
        if (chunk.startsWith('\u001b')) return chunk === '\u001b' ? done(undefined) : undefined;
        const chars = [...chunk];
        for (const [i, ch] of chars.entries()) {
          if (ch === '\r' || ch === '\n') return done(value, chars.slice(i + 1).join(''));
          if (ch === '\u0003' || (ch === '\u0004' && value === '')) return done(undefined);
          if (ch === '\u007f' || ch === '\b') {
            if (value !== '') {
              value = [...value].slice(0, -1).join('');
              echo('\b \b');
            }
          } else if (ch >= ' ') {
            value += ch;
            echo(hidden ? '*' : ch);
          }
        }
      };
      const typedAhead = this.buffer;
      this.buffer = '';
      if (typedAhead !== '') this.raw(typedAhead);
      if (!finished && this.ended) done(undefined);
    });
  }

  /** Stops reading (so a pipe left open does not keep the process alive). */
  close(): void {
    if (!this.started) return;
    this.stdin.removeAllListeners();
    this.stdin.pause();
  }
}

/**
 * gemini-cli's question: the text, then `Do you want to continue? [Y/n]: `; an empty answer is yes. With no input at
 * all (closed stdin) the answer is no, and the error says to pass --consent.
 */
export function askConsent(io: CliIo, lines: LineReader): (text: string) => Promise<boolean> {
  return async (text) => {
    io.stderr(`${text}\n`);
    io.stderr('Do you want to continue? [Y/n]: ');
    const answer = await lines.next();
    if (answer === undefined) {
      io.stderr('\nNo answer on stdin; pass --consent to accept non-interactively.\n');
      return false;
    }
    const trimmed = answer.trim().toLowerCase();
    return trimmed === '' || trimmed === 'y' || trimmed === 'yes';
  };
}
