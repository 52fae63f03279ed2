import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * Reads a stream eagerly into a queue of UTF-8 text chunks and hands them out through a single-consumer
 * async iterator. Reading eagerly means an unconsumed stream never blocks the process or its exit; the queue
 * is bounded: past `maxBytes` of unread output the oldest chunks are dropped, and the reader is told how many
 * bytes it missed (`[Output truncated: …]`) before the chunks that were kept.
 */
export class ChunkQueue implements AsyncIterable<string> {
  private readonly chunks: string[] = [];
  private head = 0;
  private queuedBytes = 0;
  private dropped = 0;
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private consumed = false;

  constructor(
    stream: Readable | null,
    private readonly maxBytes: number,
  ) {
    if (!stream) {
      this.ended = true;
      return;
    }
    const decoder = new StringDecoder('utf8');
    stream.on('data', (chunk: Buffer) => this.push(decoder.write(chunk)));
    stream.on('end', () => {
      this.push(decoder.end());
      this.finish();
    });
    stream.on('close', () => this.finish());
    stream.on('error', (error) => {
      this.failure = error;
      this.finish();
    });
  }

  private push(text: string): void {
    if (text === '') return;
    this.chunks.push(text);
    this.queuedBytes += Buffer.byteLength(text);
    while (this.queuedBytes > this.maxBytes && this.chunks.length - this.head > 1) {
      const oldest = this.chunks[this.head]!;
      this.chunks[this.head] = '';
      this.head += 1;
      const size = Buffer.byteLength(oldest);
      this.queuedBytes -= size;
      this.dropped += size;
    }
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks.splice(0, this.head);
      this.head = 0;
    }
    this.signal();
  }

  private finish(): void {
    this.ended = true;
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private take(): string | undefined {
    if (this.dropped > 0) {
      const note =
        `[Output truncated: ${this.dropped} bytes were dropped because nobody read them; unread output is ` +
        `limited to ${this.maxBytes} bytes.]\n`;
      this.dropped = 0;
      return note;
    }
    if (this.head >= this.chunks.length) return undefined;
    const next = this.chunks[this.head]!;
    this.chunks[this.head] = '';
    this.head += 1;
    this.queuedBytes -= Buffer.byteLength(next);
    return next;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    if (this.consumed) throw new Error('This output stream is already being read.');
    this.consumed = true;
    for (;;) {
      const next = this.take();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.ended) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}
