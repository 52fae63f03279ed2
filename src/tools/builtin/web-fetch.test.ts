import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionContext } from '../../core/session-context.js';
import { createTestSessionContext } from '../../testing/test-session-context.js';
import { createWorkspace } from '../../workspace/workspace.js';
import { htmlToText } from './html-to-text.js';
import { isBlockedAddress } from './url-safety.js';
import { createWebFetchTool } from './web-fetch.js';

let server: Server;
let origin: string;
let base: string;
let ctx: SessionContext;
const call = () => ({ callId: 'c', signal: new AbortController().signal });

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><head><title>T</title><style>p{}</style></head><body><h1>Hello &amp; welcome</h1>' +
          '<script>alert(1)</script><p>First <b>para</b>.</p><ul><li>one</li><li>two</li></ul>' +
          '<a href="/docs">Docs</a><img src="x.png"></body></html>',
      );
    } else if (req.url === '/plain') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('plain <text> here');
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('b'.repeat(5000));
    } else if (req.url === '/redirect') {
      res.writeHead(302, { location: '/plain' });
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  base = await mkdtemp(path.join(os.tmpdir(), 'ws-web-'));
  ctx = createTestSessionContext(createWorkspace({ cwd: base }));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(base, { recursive: true, force: true });
});

describe('web_fetch', () => {
  const local = createWebFetchTool({ allowPrivateHosts: true });

  it('is a fetch tool that returns the text of the URLs in the prompt', async () => {
    expect(local.kind).toBe('fetch');
    const result = await local.execute(
      { prompt: `Summarize ${origin}/page and ${origin}/plain please` },
      ctx,
      call(),
    );
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toBe(
      `<untrusted_context>\n<source url="${origin}/page">\nHello &amp; welcome\n\nFirst para.\n\n* one\n* two\n\nDocs\n</source>\n<source url="${origin}/plain">\nplain &lt;text&gt; here\n</source>\n</untrusted_context>`,
    );
  });

  it('follows redirects, reports per-URL failures, and fails when every URL failed', async () => {
    const mixed = await local.execute(
      { prompt: `${origin}/redirect ${origin}/missing` },
      ctx,
      call(),
    );
    expect(String(mixed.llmContent)).toContain('plain &lt;text&gt; here');
    expect(String(mixed.llmContent)).toContain(
      `<source url="${origin}/missing">\nError: Request failed with status code 404 Not Found\n</source>`,
    );
    const failed = await local.execute({ prompt: `${origin}/missing` }, ctx, call());
    expect(failed.error?.type).toBe('web_fetch_fallback_failed');
    expect(failed.error?.message).toBe(
      `Error: All fallback fetch attempts failed: ${origin}/missing: Request failed with status code 404 Not Found`,
    );
  });

  it('caps the content size', async () => {
    const small = createWebFetchTool({ allowPrivateHosts: true, maxContentChars: 100 });
    const result = await small.execute({ prompt: `${origin}/big` }, ctx, call());
    expect(String(result.llmContent)).toContain(
      `${'b'.repeat(100)}\n\n... [Content truncated due to size limit] ...`,
    );
    const tiny = createWebFetchTool({ allowPrivateHosts: true, maxBytes: 1000 });
    const refused = await tiny.execute({ prompt: `${origin}/big` }, ctx, call());
    expect(refused.error?.message).toContain('Content exceeds size limit of 1000 bytes');
  });

  it('blocks loopback and private hosts by default', async () => {
    const strict = createWebFetchTool();
    const result = await strict.execute({ prompt: `${origin}/page` }, ctx, call());
    expect(result.error?.type).toBe('web_fetch_processing_error');
    expect(result.error?.message).toBe(
      `Error: All requested URLs were skipped: [Blocked Host] ${origin}/page`,
    );
    expect(isBlockedAddress('10.1.2.3')).toBe(true);
    expect(isBlockedAddress('192.168.0.1')).toBe(true);
    expect(isBlockedAddress('::1')).toBe(true);
    expect(isBlockedAddress('8.8.8.8')).toBe(false);
  });

  it('validates the prompt as gemini-cli does', () => {
    expect(local.validate({ prompt: 'no urls here' })).toEqual({
      ok: false,
      error:
        "The 'prompt' must contain at least one valid URL (starting with http:// or https://).",
    });
    expect(local.validate({ prompt: 'ftp://x.org/file' })).toEqual({
      ok: false,
      error:
        'Error(s) in prompt URLs:\n- Unsupported protocol in URL: "ftp://x.org/file". Only http and https are supported.',
    });
    expect(local.validate({})).toMatchObject({ ok: false });
  });

  it('direct mode takes a url and keeps links', async () => {
    const direct = createWebFetchTool({ allowPrivateHosts: true, direct: true });
    expect(direct.parametersJsonSchema).toMatchObject({ required: ['url'] });
    const result = await direct.execute({ url: `${origin}/page` }, ctx, call());
    expect(String(result.llmContent)).toContain(`Docs [${origin}/docs]`);
    const notFound = await direct.execute({ url: `${origin}/missing` }, ctx, call());
    expect(String(notFound.llmContent)).toMatch(/^Request failed with status 404\nHeaders: /);
  });
});

describe('htmlToText', () => {
  it('drops scripts and styles, decodes entities, keeps pre blocks', () => {
    expect(
      htmlToText('<p>a&nbsp;&lt;b&gt; &#39;c&#x27;</p><pre>  x\n    y</pre><script>z</script>'),
    ).toBe("a <b> 'c'\n\n  x\n    y");
  });
});
