import type { CliIo } from './cli-io.js';
import type { Sink } from './output/output-writer.js';

/* eslint-disable no-control-regex */
/** ANSI / VT escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`), DCS/PM/APC/SOS, two-byte ESC x. */
const ESCAPE_SEQUENCE =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -~]?|\x9b[0-?]*[ -/]*[@-~]/g;
/** Controls that remain: C0 except tab and newline, DEL, C1, and the bidi overrides ("Trojan source"). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */

/**
 * Makes text safe to print to a terminal: escape sequences (colours, cursor moves, title changes, OSC 8
 * links, clipboard writes) are removed, a lone carriage return becomes a newline (so a line cannot be
 * overwritten), and every other control character except tab and newline is dropped. Model text, file names
 * and session titles go through this before they reach a TTY.
 */
export function sanitizeTerminalText(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(/\r(?!\n)/g, '\n')
    .replace(CONTROL, '');
}

/**
 * Removes ANSI / VT escape sequences and nothing else (gemini's `stripAnsi` of model text): what `-p` prints to
 * a pipe or a file, unless `--raw-output`.
 */
export function stripEscapeSequences(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '');
}

/**
 * The CLI's I/O with stdout and stderr sanitised wherever they are terminals; `terminalStderr` stays raw for
 * the progress line's own control codes. Pipes and files get the bytes unchanged.
 */
export function terminalSafeIo(io: CliIo): CliIo {
  const wrap = (sink: Sink, isTTY: boolean): Sink =>
    isTTY ? (text) => sink(sanitizeTerminalText(text)) : sink;
  return {
    ...io,
    stdout: wrap(io.stdout, io.stdoutIsTTY),
    stderr: wrap(io.stderr, io.stderrIsTTY),
    terminalStderr: io.terminalStderr ?? io.stderr,
  };
}
