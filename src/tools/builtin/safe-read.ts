import { GeminiAgentError } from '../../errors.js';
import type { SandboxFilesystem } from '../../core/workspace-types.js';

/** Why a file that exists could not be read. */
export interface ReadRefusal {
  message: string;
  /** gemini-cli error type: `file_too_large` or `read_content_failure`. */
  type: 'file_too_large' | 'read_content_failure';
}

/** What reading a file for a tool gave. */
export type ReadOutcome =
  { kind: 'bytes'; bytes: Uint8Array } | { kind: 'missing' } | ({ kind: 'refused' } & ReadRefusal);

const REFUSAL_CODES = new Set(['FILE_TOO_LARGE', 'NOT_REGULAR_FILE', 'HARD_LINK', 'PATH_CHANGED']);

/**
 * Reads a file through `ctx.fs`, turning the workspace's "there but unsafe to read" refusals (above the read
 * cap, a FIFO / socket / device, a hard-linked file) into a value the tool can report; `missing` covers null
 * (missing, outside, blocked, a directory). Other errors propagate.
 */
export async function readForTool(fs: SandboxFilesystem, file: string): Promise<ReadOutcome> {
  try {
    const bytes = await fs.readFileBytes(file);
    return bytes === null ? { kind: 'missing' } : { kind: 'bytes', bytes };
  } catch (error) {
    if (error instanceof GeminiAgentError && REFUSAL_CODES.has(error.code)) {
      return {
        kind: 'refused',
        message: error.message,
        type: error.code === 'FILE_TOO_LARGE' ? 'file_too_large' : 'read_content_failure',
      };
    }
    throw error;
  }
}

/** {@link readForTool} as text (UTF-8). */
export async function readTextForTool(
  fs: SandboxFilesystem,
  file: string,
): Promise<{ kind: 'text'; text: string } | Exclude<ReadOutcome, { kind: 'bytes' }>> {
  const outcome = await readForTool(fs, file);
  return outcome.kind === 'bytes'
    ? { kind: 'text', text: Buffer.from(outcome.bytes).toString('utf8') }
    : outcome;
}
