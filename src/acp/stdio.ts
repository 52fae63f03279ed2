/* eslint-disable no-console -- the one place that takes `console` over (to stderr) while stdout carries ACP. */
import { Readable } from 'node:stream';
import { format } from 'node:util';
import type { AcpByteStream } from './acp-connection.js';

/** The process's stdio as an ACP byte stream, with stdout kept for protocol messages only. */
export interface StdioStreams {
  stream: AcpByteStream;
  /** Called once when stdout breaks (EPIPE: the client is gone). */
  onBroken(listener: () => void): void;
  /** Puts `console` back and stops listening. */
  restore(): void;
}

const CONSOLE_METHODS = ['log', 'info', 'debug', 'warn', 'error', 'trace'] as const;

/**
 * Wraps stdin/stdout as Web streams. While serving, `console.*` writes to stderr (gemini-cli's "working stdio"):
 * a stray log line from any library would otherwise corrupt the protocol stream.
 */
export function stdioStreams(): StdioStreams {
  const saved = CONSOLE_METHODS.map((name) => [name, console[name]] as const);
  for (const name of CONSOLE_METHODS) {
    console[name] = (...args: unknown[]) => {
      process.stderr.write(`${format(...args)}\n`);
    };
  }
  const listeners: Array<() => void> = [];
  let broken = false;
  const onError = (error: NodeJS.ErrnoException) => {
    if (broken) return;
    broken = true;
    process.stderr.write(`[acp] stdout closed (${error.code ?? error.message}); shutting down\n`);
    for (const listener of listeners) listener();
  };
  process.stdout.on('error', onError);
  return {
    stream: {
      readable: Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>,
      // Closing the protocol stream leaves stdout open (the process exits next, and may still flush).
      writable: new WritableStream<Uint8Array>({
        write: (chunk) =>
          new Promise<void>((resolve, reject) => {
            process.stdout.write(chunk, (error) => (error ? reject(error) : resolve()));
          }),
      }),
    },
    onBroken(listener) {
      if (broken) listener();
      else listeners.push(listener);
    },
    restore() {
      process.stdout.off('error', onError);
      for (const [name, method] of saved) console[name] = method;
    },
  };
}
