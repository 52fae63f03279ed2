import type { SessionLog, SessionNote } from '../core/session-log.js';
import {
  CompressionStatus,
  type ChatCompressedInfo,
  type CompressionStatusValue,
  type RetryEventInfo,
} from '../events.js';
import type { Logger } from '../logger.js';

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The display line of a model request that failed and is sent again. */
export function retryNote(info: RetryEventInfo, timestamp = new Date().toISOString()): SessionNote {
  const where = info.phase === 'stream' ? 'the response stream' : 'the model request';
  return {
    level: 'warning',
    text: `Attempt ${info.attempt} of ${info.maxAttempts} failed in ${where} (${info.reason}); retrying in ${seconds(info.delayMs)}.`,
    timestamp,
    event: {
      kind: 'retry',
      attempt: info.attempt,
      maxAttempts: info.maxAttempts,
      delayMs: info.delayMs,
      phase: info.phase,
      reason: info.reason,
      ...(info.status === undefined ? {} : { status: info.status }),
      ...(info.code === undefined ? {} : { code: info.code }),
      message: info.message.slice(0, 2000),
    },
  };
}

/** gemini-cli's names of the compression statuses that change the history. */
const STATUS_NAMES: Partial<Record<CompressionStatusValue, string>> = {
  [CompressionStatus.COMPRESSED]: 'compressed',
  [CompressionStatus.CONTENT_TRUNCATED]: 'content_truncated',
};

/**
 * The display line of a compression that replaced the history: gemini-cli's `Context compressed from 62% to 12%.`
 * (percentages of the model's context window) when a summary replaced it, else what was done.
 */
export function compressionNote(
  info: ChatCompressedInfo,
  figures: { tokenLimit: number; trigger: 'manual' | 'auto' },
  timestamp = new Date().toISOString(),
): SessionNote {
  const percent = (tokens: number): number =>
    figures.tokenLimit > 0 ? Math.round((tokens / figures.tokenLimit) * 100) : 0;
  const text =
    info.compressionStatus === CompressionStatus.COMPRESSED
      ? `Context compressed from ${percent(info.originalTokenCount)}% to ${percent(info.newTokenCount)}%.`
      : `Context shortened by truncating old tool outputs (${info.originalTokenCount} to ${info.newTokenCount} tokens).`;
  return {
    level: 'info',
    text,
    timestamp,
    event: {
      kind: 'compression',
      trigger: figures.trigger,
      status: STATUS_NAMES[info.compressionStatus] ?? String(info.compressionStatus),
      originalTokenCount: info.originalTokenCount,
      newTokenCount: info.newTokenCount,
      tokenLimit: figures.tokenLimit,
    },
  };
}

/**
 * Stores a note without waiting for it (a retry is reported from inside the model call): the log orders it before
 * the writes asked for after it; a failure to store it is logged, never thrown.
 */
export function storeNote(log: SessionLog | undefined, note: SessionNote, logger: Logger): void {
  if (log?.appendNote === undefined) return;
  log.appendNote(note).catch((error: unknown) => {
    logger.warn('could not store a note in the session', {
      note: note.event.kind,
      error: error instanceof Error ? error.message : String(error),
    });
  });
}
