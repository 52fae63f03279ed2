import type { RetryEventInfo } from './sdk.js';

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${s >= 10 ? Math.round(s) : Math.round(s * 10) / 10} s`;
}

/**
 * The stderr line for one `retry` event, e.g. `Attempt 1/10 failed: ECONNREFUSED at http://127.0.0.1:9 (…).
 * Retrying in 5.2 s…`. A mid-stream retry says that the partial answer printed so far is replaced.
 */
export function retryLine(info: RetryEventInfo, answerStarted: boolean): string {
  const where = info.endpoint === undefined ? '' : ` at ${info.endpoint}`;
  const message = info.message.length > 240 ? `${info.message.slice(0, 237)}...` : info.message;
  const next =
    info.phase === 'stream'
      ? `Re-sending the request in ${seconds(info.delayMs)}${answerStarted ? '; the partial answer above is replaced' : ''}…`
      : `Retrying in ${seconds(info.delayMs)}…`;
  return `Attempt ${info.attempt}/${info.maxAttempts} failed: ${info.reason}${where} (${message}). ${next}\n`;
}
