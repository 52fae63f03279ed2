import { StringDecoder } from 'node:string_decoder';

/** Which stream a chunk came from. */
export type StreamName = 'stdout' | 'stderr';

interface Segment {
  stream: StreamName;
  bytes: Buffer;
}

/**
 * Keeps the most recent `maxBytes` of a process's output (whole stream or one of stdout / stderr) and
 * decodes it as UTF-8 on demand, each stream with its own decoder so interleaving never splits a character.
 */
export class OutputBuffer {
  private segments: Segment[] = [];
  private size = 0;
  /** Bytes dropped from the front because the cap was reached. */
  dropped = 0;

  constructor(private readonly maxBytes: number) {}

  push(stream: StreamName, bytes: Buffer): void {
    this.segments.push({ stream, bytes });
    this.size += bytes.length;
    while (this.size > this.maxBytes && this.segments.length > 0) {
      const first = this.segments[0]!;
      const excess = this.size - this.maxBytes;
      if (first.bytes.length <= excess) {
        this.segments.shift();
        this.size -= first.bytes.length;
        this.dropped += first.bytes.length;
      } else {
        // Cut inside the segment, then skip UTF-8 continuation bytes so text starts on a character.
        let cut = excess;
        while (cut < first.bytes.length && ((first.bytes[cut] ?? 0) & 0xc0) === 0x80) cut += 1;
        first.bytes = first.bytes.subarray(cut);
        this.size -= cut;
        this.dropped += cut;
      }
    }
  }

  /** The kept text; when bytes were dropped, a note saying so comes first. */
  text(): string {
    const decoders: Record<StreamName, StringDecoder> = {
      stdout: new StringDecoder('utf8'),
      stderr: new StringDecoder('utf8'),
    };
    let out = '';
    for (const segment of this.segments) out += decoders[segment.stream].write(segment.bytes);
    out += decoders.stdout.end() + decoders.stderr.end();
    if (this.dropped === 0) return out;
    return (
      `[Output truncated: the first ${this.dropped} bytes were dropped; output is limited to ` +
      `${this.maxBytes} bytes.]\n${out}`
    );
  }
}
