import type { AnyHookOutput } from './hook-types.js';

/** What a command hook's output means: a JSON answer, plain text mapped by exit code, or nothing. */
export interface ParsedCommandOutput {
  /** The answer (JSON as parsed, not yet checked), or undefined for no effect. */
  output: unknown;
  format: 'json' | 'text' | undefined;
}

/**
 * True for exit codes that mean the hook did not run to a verdict: 126 (not executable), 127 (not found) and
 * 128 + n (killed by signal n, e.g. 137 for SIGKILL). Their output is ignored, so a broken hook fails open.
 */
export function crashedExitCode(exitCode: number | null): boolean {
  return exitCode === 126 || exitCode === 127 || (exitCode !== null && exitCode >= 128);
}

/**
 * gemini-cli's reading of a command hook's output: `stdout` trimmed (or `stderr` when stdout is empty) is parsed
 * as JSON — a JSON string is parsed once more (double-encoded JSON), an object is the answer whatever the exit
 * code. Text that is not JSON maps by exit code: 0 → allow with the text as `systemMessage`, 1 → allow with
 * `Warning: <text>`, 2 to 125 → deny with the text as `reason`. No text, JSON that is not an object (a number,
 * `null`), or a hook that crashed ({@link crashedExitCode}, or a signal) has no effect.
 */
export function parseCommandOutput(
  stdout: string,
  stderr: string,
  exitCode: number | null,
): ParsedCommandOutput {
  const text = stdout.trim() || stderr.trim();
  if (text === '' || exitCode === null || crashedExitCode(exitCode))
    return { output: undefined, format: undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
    if (typeof parsed === 'string') parsed = JSON.parse(parsed);
  } catch {
    return { output: plainTextOutput(text, exitCode), format: 'text' };
  }
  return typeof parsed === 'object' && parsed !== null
    ? { output: parsed, format: 'json' }
    : { output: undefined, format: undefined };
}

/** The plain-text mapping: 0 allow, 1 allow with a warning, anything else deny. */
export function plainTextOutput(text: string, exitCode: number): AnyHookOutput {
  if (exitCode === 0) return { decision: 'allow', systemMessage: text };
  if (exitCode === 1) return { decision: 'allow', systemMessage: `Warning: ${text}` };
  return { decision: 'deny', reason: text };
}
