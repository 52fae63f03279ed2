import { isBlockedHost } from './url-safety.js';

/** gemini-cli's web_fetch user agent. */
export const USER_AGENT =
  'Mozilla/5.0 (compatible; Google-Gemini-CLI/1.0; +https://github.com/google-gemini/gemini-cli)';

/** Options for {@link fetchLimited}. */
export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  /** Allow loopback / private hosts (tests, intranets). */
  allowPrivateHosts: boolean;
  signal: AbortSignal;
  headers?: Record<string, string>;
}

/** A fetched response, fully read. */
export interface Fetched {
  url: string;
  status: number;
  statusText: string;
  contentType: string;
  headers: Record<string, string>;
  body: Buffer;
}

const MAX_REDIRECTS = 5;

function linkedSignal(
  parent: AbortSignal,
  timeoutMs: number,
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new Error(`Request timed out after ${timeoutMs}ms`)),
    timeoutMs,
  );
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}

async function readLimited(response: Response, limit: number): Promise<Buffer> {
  const declared = response.headers.get('content-length');
  if (declared && Number.parseInt(declared, 10) > limit) {
    throw new Error(`Content exceeds size limit of ${limit} bytes`);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw new Error(`Content exceeds size limit of ${limit} bytes`);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks);
}

/**
 * GETs a URL with a timeout and a body size cap, following up to 5 redirects by hand so that every hop is
 * checked against the blocked-host rule (a public URL cannot redirect into the local network).
 */
export async function fetchLimited(url: string, limits: FetchLimits): Promise<Fetched> {
  const link = linkedSignal(limits.signal, limits.timeoutMs);
  try {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      if (!limits.allowPrivateHosts && (await isBlockedHost(current))) {
        throw new Error(`Access to blocked or private host ${current} is not allowed.`);
      }
      const response = await fetch(current, {
        redirect: 'manual',
        signal: link.signal,
        headers: { 'User-Agent': USER_AGENT, ...(limits.headers ?? {}) },
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel().catch(() => undefined);
        current = new URL(location, current).href;
        continue;
      }
      const body = await readLimited(response, limits.maxBytes);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        headers[key] = value;
      });
      return {
        url: current,
        status: response.status,
        statusText: response.statusText,
        contentType: response.headers.get('content-type') ?? '',
        headers,
        body,
      };
    }
    throw new Error(`Too many redirects (more than ${MAX_REDIRECTS}).`);
  } finally {
    link.dispose();
  }
}
