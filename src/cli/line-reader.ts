import type { CliIo } from './cli-io.js';
import type { StdinLike } from './read-stdin.js';

/** Reads stdin line by line across several questions (lines that arrive early wait for the next question). */
export class LineReader {
  private buffer = '';
  private ended = false;
  private waiting: ((line: string | undefined) => void) | undefined;
  private started = false;

  constructor(private readonly stdin: StdinLike) {}

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.stdin.setEncoding('utf8');
    this.stdin.on('data', (chunk) => {
      this.buffer += chunk;
      this.flush();
    });
    const end = () => {
      this.ended = true;
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
