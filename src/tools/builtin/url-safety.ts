import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** True for loopback, private, link-local, CGNAT, unspecified and multicast addresses (IPv4 and IPv6). */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (version === 6) {
    const lower = address.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    if (mapped?.[1]) return isPrivateAddress(mapped[1]);
    return (
      lower === '::' ||
      lower === '::1' ||
      lower.startsWith('fc') ||
      lower.startsWith('fd') ||
      lower.startsWith('fe8') ||
      lower.startsWith('fe9') ||
      lower.startsWith('fea') ||
      lower.startsWith('feb') ||
      lower.startsWith('ff')
    );
  }
  return false;
}

/**
 * gemini-cli's blocked-host rule: `localhost`, `*.localhost`, `*.local`, `*.internal`, and any host that is
 * (or resolves to) a private address. Unresolvable hosts are not blocked here (the fetch then fails).
 */
export async function isBlockedHost(url: string): Promise<boolean> {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return true;
  }
  if (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname.endsWith('.local') ||
    hostname.endsWith('.internal')
  ) {
    return true;
  }
  if (isIP(hostname)) return isPrivateAddress(hostname);
  try {
    const addresses = await lookup(hostname, { all: true });
    return addresses.some((entry) => isPrivateAddress(entry.address));
  } catch {
    return false;
  }
}

/** Extracts http(s) URLs from a prompt, as gemini-cli's `parsePrompt` (tokens containing `://`). */
export function parsePromptUrls(text: string): { validUrls: string[]; errors: string[] } {
  const validUrls: string[] = [];
  const errors: string[] = [];
  for (const token of text.split(/\s+/)) {
    if (!token || !token.includes('://')) continue;
    try {
      const url = new URL(token);
      if (url.protocol === 'http:' || url.protocol === 'https:') validUrls.push(url.href);
      else {
        errors.push(`Unsupported protocol in URL: "${token}". Only http and https are supported.`);
      }
    } catch {
      errors.push(`Malformed URL detected: "${token}".`);
    }
  }
  return { validUrls, errors };
}

/** `github.com/o/r/blob/…` → `raw.githubusercontent.com/o/r/…`. */
export function convertGithubUrlToRaw(urlStr: string): string {
  try {
    const url = new URL(urlStr);
    if (url.hostname === 'github.com' && url.pathname.includes('/blob/')) {
      url.hostname = 'raw.githubusercontent.com';
      url.pathname = url.pathname.replace(/^\/([^/]+\/[^/]+)\/blob\//, '/$1/');
      return url.href;
    }
  } catch {
    // not a URL
  }
  return urlStr;
}

/** Lower-cases the host, drops a trailing slash and default ports (gemini-cli's `normalizeUrl`). */
export function normalizeUrl(urlStr: string): string {
  try {
    const url = new URL(urlStr);
    url.hostname = url.hostname.toLowerCase();
    if (url.pathname.endsWith('/') && url.pathname.length > 1)
      url.pathname = url.pathname.slice(0, -1);
    if (
      (url.protocol === 'http:' && url.port === '80') ||
      (url.protocol === 'https:' && url.port === '443')
    ) {
      url.port = '';
    }
    return url.href;
  } catch {
    return urlStr;
  }
}
