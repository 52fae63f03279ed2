import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * Reads a stream eagerly into a queue of UTF-8 text chunks and hands them out through a single-consumer
 * async iterator. Reading eagerly means an unconsumed stream never blocks the process or its exit; the
 * price is that unread output stays in memory until it is read.
 */
export class ChunkQueue implements AsyncIterable<string> {
  private readonly chunks: string[] = [];
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private consumed = false;

  constructor(stream: Readable | null) {
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

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    if (this.consumed) throw new Error('This output stream is already being read.');
    this.consumed = true;
    for (;;) {
      const next = this.chunks.shift();
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
