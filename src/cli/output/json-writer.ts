import type { ServerGeminiStreamEvent } from '../sdk.js';
import type { OutputWriter, RunOutcome, RunStart, Sink } from './output-writer.js';

/**
 * `--output-format json`: one pretty-printed (2-space) object at the end, with gemini-cli's fields
 * `session_id`, `response` (the text of the last model call, as gemini prints it: text before a tool call is not
 * part of the answer), `stats` and, when the run failed, `error`.
 */
export class JsonWriter implements OutputWriter {
  private sessionId = '';
  private pending = '';

  constructor(private readonly out: Sink) {}

  start(info: RunStart): void {
    this.sessionId = info.sessionId;
  }

  event(event: ServerGeminiStreamEvent): void {
    switch (event.type) {
      case 'content':
        this.pending += event.value;
        return;
      case 'retry':
        // A model call re-sent after its response started: that attempt's text is not part of the answer.
        if (event.value.phase === 'stream') this.pending = '';
        return;
      case 'tool_call_response':
        // Model calls of one run are separated by tool results: a new call's text starts the answer again.
        this.pending = '';
        return;
      default:
        return;
    }
  }

  finish(outcome: RunOutcome): void {
    const response = this.pending;
    const body = {
      session_id: this.sessionId,
      response,
      stats: outcome.stats.session,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
    };
    this.out(`${JSON.stringify(body, null, 2)}\n`);
  }
}
