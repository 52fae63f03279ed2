// The questions of `gemini-agent extensions install | link | update | config` for extension settings, as gemini's
// (its prompts: the setting's name, then its description; a sensitive value shown as `*`).
import type { CliIo } from './cli-io.js';
import type { LineReader } from './line-reader.js';
import type { ExtensionSettingRequest } from './sdk.js';

/** Whether the CLI may stop and ask: stdin is a terminal and `CI` is not set to true. */
export function canPrompt(io: CliIo): boolean {
  const ci = io.env?.['CI'];
  return io.stdin.isTTY === true && ci !== 'true' && ci !== '1';
}

/** Reads one answer: typed on a terminal (raw mode, `*` for hidden), else the next line of piped input. */
function answer(io: CliIo, lines: LineReader, hidden: boolean): Promise<string | undefined> {
  if (io.stdin.isTTY !== true) return lines.next();
  const echo = io.terminalStderr ?? io.stderr;
  return lines.readTerminalLine((text) => echo(text), hidden);
}

/** gemini's `promptForSetting`: `? <name>`, `<description> › `, the value (hidden when sensitive). */
export function settingQuestion(io: CliIo, lines: LineReader): ExtensionSettingRequest {
  return async (setting) => {
    io.stderr(`? ${setting.name}\n${setting.description} › `);
    const value = await answer(io, lines, setting.sensitive === true);
    if (io.stdin.isTTY !== true) io.stderr('\n');
    return value;
  };
}

/** gemini's confirmation: `? <question> (y/N) `; only y or yes is yes. */
export function confirmQuestion(
  io: CliIo,
  lines: LineReader,
): (question: string) => Promise<boolean> {
  return async (question) => {
    io.stderr(`? ${question} (y/N) `);
    const reply = await answer(io, lines, false);
    if (io.stdin.isTTY !== true) io.stderr('\n');
    return /^y(es)?$/i.test(reply?.trim() ?? '');
  };
}
