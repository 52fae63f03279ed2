/**
 * SSRF in web_fetch: loopback, private, link-local, metadata, CGNAT, multicast, NAT64, 6to4, IPv4-mapped and
 * odd numeric spellings are refused, DNS names that resolve to any of them too (resolved once: the
 * connection goes to the address that was checked), and every redirect hop is checked again. A loopback
 * server counts requests: none of the refused targets may reach it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchLimited } from '../../src/tools/builtin/http-fetch.js';
import { isBlockedAddress } from '../../src/tools/builtin/url-safety.js';
import { createWebFetchTool } from '../../src/tools/builtin/web-fetch.js';
import { createArena, resultText, type Arena } from './helpers/sandbox.js';

let hits = 0;
let arena: Arena;
const call = () => ({ callId: 'ssrf', signal: new AbortController().signal });

// Started at load time: the target table below needs the port.
const server: Server = createServer((req, res) => {
  hits += 1;
  if (req.url?.startsWith('/redirect?to=')) {
    res.writeHead(302, { location: decodeURIComponent(req.url.slice('/redirect?to='.length)) });
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('internal secret');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;

beforeAll(() => {
  arena = createArena();
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  arena.cleanup();
});

const targets = (): string[] => [
  `http://127.0.0.1:${port}/`,
  `http://localhost:${port}/`,
  `http://localhost.:${port}/`,
  `http://app.localhost:${port}/`,
  `http://[::1]:${port}/`,
  `http://[::ffff:127.0.0.1]:${port}/`,
  `http://[::ffff:7f00:1]:${port}/`,
  `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/`,
  `http://0.0.0.0:${port}/`,
  `http://0:${port}/`,
  `http://2130706433:${port}/`,
  `http://0x7f000001:${port}/`,
  `http://0177.0.0.1:${port}/`,
  `http://127.1:${port}/`,
  `http://[::]:${port}/`,
  `http://[64:ff9b::7f00:1]:${port}/`,
  `http://[2002:7f00:1::]:${port}/`,
  'http://169.254.169.254/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/latest/meta-data/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://printer.local/',
  'http://[fd00::1]/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  'http://100.64.0.1/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://192.0.0.1/',
  'http://198.18.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
];

describe('web_fetch refuses internal targets', () => {
  it('lists at least 15 targets', () => {
    expect(targets().length).toBeGreaterThanOrEqual(15);
  });

  it.each(targets())('refuses %s (prompt mode and direct mode)', async (url) => {
    const before = hits;
    const prompt = await createWebFetchTool().execute({ prompt: `read ${url}` }, arena.ctx, call());
    expect(resultText(prompt)).toMatch(/Blocked Host|blocked or private/);
    const direct = await createWebFetchTool({ direct: true }).execute({ url }, arena.ctx, call());
    expect(resultText(direct)).toMatch(/blocked or private/);
    expect(hits).toBe(before);
  });

  it('classifies with ipaddr.js: public unicast passes, every special range is blocked', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '2606:4700::1111']) {
      expect(isBlockedAddress(address), address).toBe(false);
    }
    for (const address of ['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::', '2001:db8::1']) {
      // Forms that embed or tunnel to IPv4 are blocked unless IPv4-mapped to a public address.
      expect(isBlockedAddress(address), address).toBe(address !== '::ffff:8.8.8.8');
    }
    expect(isBlockedAddress('not an address')).toBe(true);
  });
});

describe('DNS names', () => {
  it.each([['127.0.0.1'], ['::1'], ['169.254.169.254'], ['10.1.2.3'], ['::ffff:127.0.0.1']])(
    'a name that resolves to %s is refused',
    async (address) => {
      const before = hits;
      const tool = createWebFetchTool({
        lookup: async () => [{ address, family: address.includes(':') ? 6 : 4 }],
      });
      const result = await tool.execute(
        { prompt: `see http://evil.example:${port}/` },
        arena.ctx,
        call(),
      );
      expect(resultText(result)).toMatch(/Blocked Host|blocked or private/);
      expect(hits).toBe(before);
    },
  );

  it('a name with one public and one private address is refused', async () => {
    const tool = createWebFetchTool({
      lookup: async () => [
        { address: '8.8.8.8', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    });
    const result = await tool.execute(
      { prompt: `see http://mixed.example:${port}/` },
      arena.ctx,
      call(),
    );
    expect(resultText(result)).toMatch(/Blocked Host|blocked or private/);
  });

  it('resolves once and connects to that address (rebinding after the check has no effect)', async () => {
    const before = hits;
    let lookups = 0;
    // First answer: a public address (passes the check); every later answer would be loopback.
    const lookup = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? '192.0.2.1' : '127.0.0.1', family: 4 }];
    };
    await expect(
      fetchLimited(`http://rebind.example:${port}/`, {
        timeoutMs: 1500,
        maxBytes: 1024,
        allowPrivateHosts: false,
        signal: new AbortController().signal,
        lookup,
        isBlocked: (address) => address !== '192.0.2.1' && isBlockedAddress(address),
      }),
    ).rejects.toThrow();
    expect(lookups).toBe(1);
    expect(hits).toBe(before);
  });
});

describe('redirects', () => {
  /** Only 127.0.0.1 counts as public here, so the server can play the public site. */
  const limits = () => ({
    timeoutMs: 3000,
    maxBytes: 1024,
    allowPrivateHosts: false,
    signal: new AbortController().signal,
    isBlocked: (address: string) => address !== '127.0.0.1',
  });

  it('the checked address is really used: the loopback "public" site is fetched', async () => {
    const fetched = await fetchLimited(`http://127.0.0.1:${port}/`, limits());
    expect(fetched.body.toString()).toBe('internal secret');
  });

  it.each([
    (p: number) => `http://[::1]:${p}/`,
    (p: number) => `http://localhost:${p}/`,
    () => 'http://169.254.169.254/latest/meta-data/',
    () => 'http://[::ffff:169.254.169.254]/',
  ])('a redirect into the local network is refused (%#)', async (to) => {
    const target = to(port);
    const before = hits;
    await expect(
      fetchLimited(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(target)}`, limits()),
    ).rejects.toThrow(/blocked or private/);
    expect(hits).toBe(before + 1);
  });
});
