import type { ServerGeminiStreamEvent } from './sdk.js';
import { sanitizeTerminalText } from './terminal-text.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 80;

/** Where progress is drawn and whether drawing is allowed right now. */
export interface ProgressTarget {
  /** Writes to the terminal (stderr). */
  write(text: string): void;
  /** False while drawing would damage other output (e.g. stdout is the same terminal and mid-line). */
  canDraw(): boolean;
}

/**
 * A one-line status on stderr while the model or a tool works ("Thinking…", "Running list_directory…"). Only
 * created when stderr is a terminal, so pipes and files never see it; stdout is never touched.
 */
export class Progress {
  private status: string | undefined;
  private frame = 0;
  private drawn = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly running = new Map<string, string>();

  constructor(private readonly target: ProgressTarget) {}

  /** Shows the initial "Thinking…" status. */
  begin(): void {
    this.show('Thinking…');
  }

  /** Updates the status from a stream event. Call before the event's output is written. */
  observe(event: ServerGeminiStreamEvent): void {
    switch (event.type) {
      case 'content':
        this.clear();
        this.status = undefined;
        return;
      case 'tool_call_request':
        this.running.set(event.value.callId, event.value.name);
        this.show(`Running ${[...new Set(this.running.values())].join(', ')}…`);
        return;
      case 'tool_call_response':
        this.running.delete(event.value.callId);
        if (this.running.size === 0) this.show('Thinking…');
        else this.show(`Running ${[...new Set(this.running.values())].join(', ')}…`);
        return;
      case 'retry':
        this.show('Retrying…');
        return;
      default:
        return;
    }
  }

  /** Removes the status line and stops the animation. */
  end(): void {
    this.clear();
    this.status = undefined;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Erases the status line (before other output is written to the same terminal). */
  clear(): void {
    if (!this.drawn) return;
    this.target.write('\r\x1b[K');
    this.drawn = false;
  }

  private show(status: string): void {
    // The status names model-chosen tools: written raw next to our own control codes, so sanitise it here.
    this.status = sanitizeTerminalText(status).replace(/\n/g, ' ');
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.draw(), FRAME_MS);
      this.timer.unref();
    }
    this.draw();
  }

  private draw(): void {
    if (this.status === undefined || !this.target.canDraw()) return;
    const glyph = FRAMES[this.frame % FRAMES.length] ?? '';
    this.frame += 1;
    this.target.write(`\r\x1b[K${glyph} ${this.status}`);
    this.drawn = true;
  }
}
