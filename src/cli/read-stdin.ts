/** The parts of a readable stream the CLI needs to read piped input. */
export interface StdinLike {
  isTTY?: boolean;
  /** A terminal's raw mode (keys arrive one by one, unechoed): used to read hidden values. */
  setRawMode?(mode: boolean): unknown;
  setEncoding(encoding: 'utf8'): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(): unknown;
  pause(): unknown;
  destroy(): unknown;
}

/** How long to wait for the first byte of piped input before treating stdin as empty (as gemini-cli). */
const FIRST_BYTE_TIMEOUT_MS = 500;
/** Piped input beyond this many characters is refused (a prompt, not a data dump). */
const MAX_STDIN_CHARS = 8 * 1024 * 1024;

/**
 * Reads piped stdin to the end. Returns '' for a terminal, and for a pipe that stays silent for 500 ms (a
 * parent that left stdin open but never writes must not hang the CLI).
 */
export function readPipedStdin(stdin: StdinLike): Promise<string> {
  if (stdin.isTTY === true) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    let text = '';
    let settled = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stdin.removeAllListeners();
      stdin.pause();
      stdin.destroy();
      if (error !== undefined) reject(error);
      else resolve(text);
    };
    const timer = setTimeout(() => {
      if (text === '') finish();
    }, FIRST_BYTE_TIMEOUT_MS);
    stdin.setEncoding('utf8');
    stdin.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_STDIN_CHARS) {
        finish(new Error(`Piped input is larger than ${MAX_STDIN_CHARS} characters.`));
      }
    });
    stdin.on('end', () => finish());
    stdin.on('close', () => finish());
    stdin.on('error', (error: Error) => finish(error));
  });
}

/**
 * Combines piped input and the prompt as gemini-cli does: `stdin\n\nprompt`, or whichever of the two is
 * present. Returns undefined when there is neither.
 */
export function combinePrompt(stdinText: string, prompt: string | undefined): string | undefined {
  const piped = stdinText.trim() === '' ? '' : stdinText;
  if (prompt === undefined || prompt === '') return piped === '' ? undefined : piped;
  return piped === '' ? prompt : `${piped}\n\n${prompt}`;
}
