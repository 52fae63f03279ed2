import { GeminiAgentError, ModelApiError } from '../errors.js';
import { parseRetryAfter } from './model-http-error.js';

/** Network error codes that are retried, looked up through the `cause` chain (as gemini-cli). */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** Messages (lower-cased substrings) of retryable transport failures. */
const RETRYABLE_MESSAGES = [
  'fetch failed',
  'incomplete json segment',
  'terminated',
  'socket hang up',
];

/** Server delay hints above this are not waited for: the error is treated as terminal (as gemini-cli). */
export const MAX_SERVER_DELAY_MS = 300_000;

/** What the retry layer learned from an error. */
export interface ErrorClassification {
  /** Whether another attempt may succeed. */
  retryable: boolean;
  /** HTTP status, when the error carried one. */
  status: number | undefined;
  /** Delay asked for by the server (Retry-After, RetryInfo or "Please retry in …"), in ms. */
  serverDelayMs: number | undefined;
  /** A network error code found in the cause chain. */
  networkCode: string | undefined;
}

/** Returns true for HTTP statuses retried by default: 429, 499 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 499 || (status >= 500 && status < 600);
}

/**
 * Classifies an error thrown by a model call: retryable statuses (429, 499, 5xx), network failures (codes such
 * as ECONNRESET, ETIMEDOUT, UND_ERR_* through the cause chain; "fetch failed"), and the server's delay hint
 * (`Retry-After` seconds or date, `google.rpc.RetryInfo.retryDelay`, "Please retry in Xs"). 400, 401, 403, 404
 * and other 4xx are never retryable; neither are SDK errors other than {@link ModelApiError}, nor aborts.
 */
export function classifyError(error: unknown, now: number = Date.now()): ErrorClassification {
  const status = findStatus(error);
  const networkCode = findNetworkCode(error);
  const serverDelayMs = findServerDelay(error, now);
  let retryable: boolean;
  if (isAbort(error)) retryable = false;
  else if (error instanceof GeminiAgentError && !(error instanceof ModelApiError))
    retryable = false;
  else if (status !== undefined) retryable = isRetryableStatus(status) && !isTerminalQuota(error);
  else if (error instanceof ModelApiError) retryable = error.retryable;
  else retryable = networkCode !== undefined || hasRetryableMessage(error);
  if (retryable && serverDelayMs !== undefined && serverDelayMs > MAX_SERVER_DELAY_MS)
    retryable = false;
  return { retryable, status, serverDelayMs, networkCode };
}

/** True when the error is an abort (ours, a DOMException `AbortError`, or an error named `AbortError`). */
export function isAbort(error: unknown): boolean {
  if (error instanceof GeminiAgentError) return error.code === 'ABORTED';
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

function* causeChain(error: unknown, depth = 6): Generator<unknown> {
  let current: unknown = error;
  for (let i = 0; i < depth && current !== undefined && current !== null; i++) {
    yield current;
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
}

function findStatus(error: unknown): number | undefined {
  for (const e of causeChain(error)) {
    if (typeof e !== 'object' || e === null) continue;
    const s = (e as { status?: unknown }).status;
    if (typeof s === 'number' && s >= 100 && s < 600) return s;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number' && code >= 400 && code < 600) return code;
  }
  return undefined;
}

function findNetworkCode(error: unknown): string | undefined {
  for (const e of causeChain(error)) {
    if (typeof e !== 'object' || e === null) continue;
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (RETRYABLE_NETWORK_CODES.has(code) || code.startsWith('UND_ERR_')) return code;
    if (code.startsWith('ERR_SSL_') && code.endsWith('BAD_RECORD_MAC')) return code;
  }
  return undefined;
}

function hasRetryableMessage(error: unknown): boolean {
  for (const e of causeChain(error)) {
    if (!(e instanceof Error)) continue;
    const m = e.message.toLowerCase();
    if (RETRYABLE_MESSAGES.some((s) => m.includes(s))) return true;
  }
  return false;
}

/** The JSON error body of an error: its `body` field, or JSON embedded in its message (as @google/genai does). */
export function findErrorBody(error: unknown): unknown {
  for (const e of causeChain(error)) {
    if (typeof e !== 'object' || e === null) continue;
    const body = (e as { body?: unknown }).body;
    if (typeof body === 'object' && body !== null) return body;
    if (e instanceof Error) {
      const start = e.message.indexOf('{');
      const end = e.message.lastIndexOf('}');
      if (start >= 0 && end > start) {
        try {
          return JSON.parse(e.message.slice(start, end + 1)) as unknown;
        } catch {
          // not JSON: keep looking down the chain
        }
      }
    }
  }
  return undefined;
}

function errorDetails(error: unknown): Array<Record<string, unknown>> {
  const body = findErrorBody(error);
  const inner = (body as { error?: { details?: unknown } } | undefined)?.error ?? body;
  const details = (inner as { details?: unknown } | undefined)?.details;
  return Array.isArray(details)
    ? details.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null)
    : [];
}

function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/.exec(value);
    if (!m) return undefined;
    const n = Number(m[1]);
    return Math.round(m[2] === 'ms' ? n : n * 1000);
  }
  if (typeof value === 'object' && value !== null) {
    const { seconds, nanos } = value as { seconds?: unknown; nanos?: unknown };
    const s = typeof seconds === 'number' || typeof seconds === 'string' ? Number(seconds) : 0;
    const n = typeof nanos === 'number' ? nanos : 0;
    if (Number.isFinite(s)) return Math.round(s * 1000 + n / 1e6);
  }
  return undefined;
}

function findServerDelay(error: unknown, now: number): number | undefined {
  const hints: number[] = [];
  for (const e of causeChain(error)) {
    if (typeof e !== 'object' || e === null) continue;
    const ms = (e as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof ms === 'number' && Number.isFinite(ms)) hints.push(ms);
    const headers = (e as { headers?: unknown }).headers;
    const fromHeader = parseRetryAfter(readHeader(headers, 'retry-after'), now);
    if (fromHeader !== undefined) hints.push(fromHeader);
  }
  for (const d of errorDetails(error)) {
    if (String(d['@type'] ?? '').endsWith('google.rpc.RetryInfo')) {
      const ms = parseDuration(d['retryDelay']);
      if (ms !== undefined) hints.push(ms);
    }
  }
  if (hints.length === 0) {
    for (const e of causeChain(error)) {
      if (!(e instanceof Error)) continue;
      const m = /please retry in (\d+(?:\.\d+)?)\s*(ms|s)\b/i.exec(e.message);
      if (m)
        hints.push(Math.round(m[2]?.toLowerCase() === 'ms' ? Number(m[1]) : Number(m[1]) * 1000));
    }
  }
  return hints.length ? Math.max(...hints) : undefined;
}

function readHeader(headers: unknown, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  if (typeof (headers as Headers).get === 'function')
    return (headers as Headers).get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name && typeof v === 'string') return v;
  }
  return undefined;
}

/** A daily quota (QuotaFailure with a PerDay/Daily quotaId) or `limit: 0` will not recover by waiting. */
function isTerminalQuota(error: unknown): boolean {
  for (const d of errorDetails(error)) {
    if (!String(d['@type'] ?? '').endsWith('google.rpc.QuotaFailure')) continue;
    const violations = Array.isArray(d['violations']) ? (d['violations'] as unknown[]) : [];
    for (const v of violations) {
      const quotaId = String((v as { quotaId?: unknown } | null)?.quotaId ?? '');
      if (/PerDay|Daily/i.test(quotaId)) return true;
    }
  }
  const body = findErrorBody(error);
  const message = String(
    (body as { error?: { message?: unknown } } | undefined)?.error?.message ?? '',
  );
  return /\blimit:\s*0\b/.test(message);
}
