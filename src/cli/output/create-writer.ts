import type { OutputFormat } from '../cli-options.js';
import { JsonWriter } from './json-writer.js';
import type { OutputWriter, Sink } from './output-writer.js';
import { StreamJsonWriter } from './stream-json-writer.js';
import { TextWriter } from './text-writer.js';

/** The writer of an output format, plus whether stdout is currently mid-line (text format only). */
export interface CreatedWriter {
  writer: OutputWriter;
  stdoutMidLine(): boolean;
}

/** Builds the writer for `-o/--output-format`. */
export function createWriter(format: OutputFormat, stdout: Sink, stderr: Sink): CreatedWriter {
  switch (format) {
    case 'json':
      return { writer: new JsonWriter(stdout), stdoutMidLine: () => false };
    case 'stream-json':
      return { writer: new StreamJsonWriter(stdout), stdoutMidLine: () => false };
    case 'text': {
      const writer = new TextWriter(stdout, stderr);
      return { writer, stdoutMidLine: () => writer.midLine };
    }
  }
}
