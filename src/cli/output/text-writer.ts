import type { ServerGeminiStreamEvent } from '../sdk.js';
import type { OutputWriter, RunOutcome, Sink } from './output-writer.js';
import { LOOP_DETECTED_MESSAGE } from './stream-json-writer.js';

/**
 * `--output-format text` (the default): the assistant's text, and only that, on stdout as it streams, each model
 * call's text ending its line before the call's tools run, and a trailing newline. Warnings and the final error go
 * to stderr
 * (an `error` event always precedes a failed run, whose error is printed once, at the end).
 */
export class TextWriter implements OutputWriter {
  private wroteContent = false;
  private endsWithNewline = true;
  private callsRequested = false;

  constructor(
    private readonly out: Sink,
    private readonly err: Sink,
  ) {}

  /** True while the last stdout write did not end a line (progress must not draw over it). */
  get midLine(): boolean {
    return !this.endsWithNewline;
  }

  start(): void {}

  event(event: ServerGeminiStreamEvent): void {
    switch (event.type) {
      case 'content':
        if (event.value === '') return;
        this.out(event.value);
        this.wroteContent = true;
        this.endsWithNewline = event.value.endsWith('\n');
        return;
      case 'tool_call_request':
        this.callsRequested = true;
        return;
      case 'finished':
        // gemini-cli ends the line before it runs a model call's tools, so each call's text is its own line.
        if (this.callsRequested) this.endLine();
        this.callsRequested = false;
        return;
      case 'loop_detected':
        this.err(`Warning: ${LOOP_DETECTED_MESSAGE}\n`);
        return;
      default:
        return;
    }
  }

  finish(outcome: RunOutcome): void {
    this.endLine();
    if (outcome.error !== undefined) this.err(`Error: ${outcome.error.message}\n`);
  }

  private endLine(): void {
    if (this.wroteContent && !this.endsWithNewline) {
      this.out('\n');
      this.endsWithNewline = true;
    }
  }
}
