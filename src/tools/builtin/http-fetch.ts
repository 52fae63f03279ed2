import type * as Http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type * as Https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import type * as Zlib from 'node:zlib';
import { builtinModule } from '../../lazy-require.js';
import {
  isBlockedAddress,
  resolveAllowedAddress,
  systemLookup,
  type HostLookup,
} from './url-safety.js';

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
  /** Host resolver (default: the system's). Each hop is resolved exactly once. */
  lookup?: HostLookup;
  /** Which addresses are refused (default {@link isBlockedAddress}). */
  isBlocked?: (address: string) => boolean;
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

/** A `lookup` for `http.request` that always answers with the address that was checked. */
function pinnedLookup(address: string, family: number): LookupFunction {
  return (_hostname, options, callback) => {
    const all =
      typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    if (all)
      (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address, family },
      ]);
    else callback(null, address, family);
  };
}

/** Decodes a compressed body on the fly; the size cap applies to the decoded bytes (no zip bombs). */
function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .toLowerCase()
    .trim();
  const zlib = builtinModule<typeof Zlib>('node:zlib');
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(zlib.createGunzip());
  if (encoding === 'deflate') return response.pipe(zlib.createInflate());
  if (encoding === 'br') return response.pipe(zlib.createBrotliDecompress());
  return response;
}

async function readLimited(response: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = response.headers['content-length'];
  if (declared && Number.parseInt(declared, 10) > limit) {
    response.destroy();
    throw new Error(`Content exceeds size limit of ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const body = decoded(response);
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) throw new Error(`Content exceeds size limit of ${limit} bytes`);
      chunks.push(chunk);
    }
  } finally {
    response.destroy();
    if (body !== response) body.destroy();
  }
  return Buffer.concat(chunks, total);
}

function request(
  url: URL,
  target: { address: string; family: number } | undefined,
  limits: FetchLimits,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const client =
    url.protocol === 'https:'
      ? builtinModule<typeof Https>('node:https')
      : builtinModule<typeof Http>('node:http');
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'GET',
        signal,
        headers: {
          'User-Agent': USER_AGENT,
          'Accept-Encoding': 'gzip, deflate, br',
          ...(limits.headers ?? {}),
        },
        ...(target ? { lookup: pinnedLookup(target.address, target.family) } : {}),
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * GETs a URL with a timeout and a body size cap, following up to 5 redirects by hand. Every hop's host is
 * resolved once, every address is checked (ipaddr.js), and the connection goes to exactly the address that
 * was checked — a DNS name cannot rebind to the local network between the check and the connect, and a
 * public URL cannot redirect into it.
 */
export async function fetchLimited(url: string, limits: FetchLimits): Promise<Fetched> {
  const link = linkedSignal(limits.signal, limits.timeoutMs);
  try {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const parsed = new URL(current);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw new Error(`Unsupported protocol in ${current}: only http and https are fetched.`);
      }
      const target = limits.allowPrivateHosts
        ? undefined
        : await resolveAllowedAddress(
            current,
            limits.lookup ?? systemLookup,
            limits.isBlocked ?? isBlockedAddress,
          );
      const response = await request(parsed, target, limits, link.signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.destroy();
        current = new URL(location, current).href;
        continue;
      }
      const body = await readLimited(response, limits.maxBytes);
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
      }
      return {
        url: current,
        status,
        statusText: response.statusMessage ?? '',
        contentType: String(response.headers['content-type'] ?? ''),
        headers,
        body,
      };
    }
    throw new Error(`Too many redirects (more than ${MAX_REDIRECTS}).`);
  } finally {
    link.dispose();
  }
}
