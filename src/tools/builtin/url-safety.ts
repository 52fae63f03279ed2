import type * as DnsPromises from 'node:dns/promises';
import type * as IpAddr from 'ipaddr.js';
import { builtinModule, lazyRequire } from '../../lazy-require.js';

/** `ipaddr.js`, loaded on the first address checked (web_fetch) rather than when the SDK is imported (goal P2). */
let ipaddrModule: typeof IpAddr | undefined;
function ipaddr(): typeof IpAddr {
  ipaddrModule ??= lazyRequire<typeof IpAddr>('ipaddr.js');
  return ipaddrModule;
}

/** Resolves a host name to its addresses (injectable for tests; default: the system resolver). */
export type HostLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** The system resolver, all addresses. */
export const systemLookup: HostLookup = (hostname) =>
  builtinModule<typeof DnsPromises>('node:dns/promises').lookup(hostname, { all: true });

/**
 * True unless the address is an ordinary public unicast address, classified with ipaddr.js: loopback,
 * private, link-local, CGNAT, unspecified (`0.0.0.0/8`, `::`), broadcast, multicast, reserved and
 * documentation ranges, unique-local, and every IPv6 form that carries an IPv4 address or tunnels to one
 * (IPv4-mapped `::ffff:…`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo, SIIT) are blocked. Unparsable
 * input is blocked too.
 */
export function isBlockedAddress(address: string): boolean {
  let parsed: IpAddr.IPv4 | IpAddr.IPv6;
  try {
    parsed = ipaddr().parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv6' && (parsed as IpAddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as IpAddr.IPv6).toIPv4Address();
  }
  return parsed.range() !== 'unicast';
}

/** A URL's host is refused (loopback, private, metadata, …). */
export class BlockedHostError extends Error {}

function blockedError(url: string, detail = ''): BlockedHostError {
  return new BlockedHostError(`Access to blocked or private host ${url} is not allowed.${detail}`);
}

/** Host names that never leave the machine or the local network, whatever they resolve to. */
export function isLocalHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return (
    name === '' ||
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name.endsWith('.local') ||
    name.endsWith('.internal') ||
    name.endsWith('.home.arpa') ||
    name === 'metadata' ||
    name === 'metadata.google.internal'
  );
}

/** The host of a URL without IPv6 brackets; undefined for an unparsable URL. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
}

/**
 * Resolves the URL's host once and checks every address: returns the address to connect to, or throws why
 * the host is refused. An IP literal is checked as is; a name is refused when any of its addresses is
 * blocked (so a name cannot rebind between the check and the connection: the caller connects to exactly the
 * address returned here).
 */
export async function resolveAllowedAddress(
  url: string,
  lookup: HostLookup = systemLookup,
  blocked: (address: string) => boolean = isBlockedAddress,
): Promise<{ address: string; family: number }> {
  const host = hostOf(url);
  if (host === undefined) throw new Error(`Invalid URL: ${url}`);
  if (isLocalHostName(host)) throw blockedError(url);
  if (ipaddr().isValid(host)) {
    if (blocked(host)) throw blockedError(url);
    return { address: host, family: host.includes(':') ? 6 : 4 };
  }
  const addresses = await lookup(host);
  if (addresses.length === 0) throw new Error(`Could not resolve host ${host}.`);
  const refused = addresses.find((entry) => blocked(entry.address));
  if (refused) throw blockedError(url, ` It resolves to ${refused.address}.`);
  return addresses[0]!;
}

/**
 * gemini-cli's blocked-host rule, made strict: `localhost`, `*.localhost`, `*.local`, `*.internal`, and any
 * host that is (or resolves to) a non-public address. Unresolvable hosts are not blocked here (the fetch then
 * fails with its own error).
 */
export async function isBlockedHost(
  url: string,
  lookup: HostLookup = systemLookup,
): Promise<boolean> {
  try {
    await resolveAllowedAddress(url, lookup);
    return false;
  } catch (error) {
    return error instanceof BlockedHostError || hostOf(url) === undefined;
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
