import { describe, expect, it } from 'vitest';
import { blockReason, configProblem, isToolEnabled, transportKind } from './mcp-config.js';
import { convertCallResult, isMcpToolError, wrapUntrusted } from './mcp-content.js';
import { expandHeaders, redactEnvironment, stdioServerEnv } from './mcp-env.js';
import { generateValidName, mcpToolName, parseMcpToolName } from './mcp-names.js';
import { transformInputSchema } from './mcp-schema.js';

describe('naming (gemini-cli generateValidName)', () => {
  it.each([
    ['github', 'list_issues', 'mcp_github_list_issues'],
    ['my server', 'do it', 'mcp_my_server_do_it'],
    ['srv', 'a/b@c', 'mcp_srv_a_b_c'],
    ['srv', 'ns:tool.v1-x', 'mcp_srv_ns:tool.v1-x'],
    ['ünïcode', 'tööl', 'mcp__n_code_t__l'],
  ])('%s + %s → %s', (server, tool, expected) => {
    expect(mcpToolName(server, tool)).toBe(expected);
  });

  it('keeps an existing mcp_ prefix and shortens long names to 30 + ... + 30 (63 characters)', () => {
    expect(generateValidName('mcp_x_y')).toBe('mcp_x_y');
    const long = mcpToolName('server', 't'.repeat(60) + 'END');
    expect(long).toBe(`mcp_server_${'t'.repeat(19)}...${'t'.repeat(27)}END`);
    expect(long).toHaveLength(63);
    expect(mcpToolName('s', 'x'.repeat(57))).toHaveLength(63);
    expect(mcpToolName('s', 'x'.repeat(58))).toContain('...');
  });

  it('parses at the first underscore after mcp_', () => {
    expect(parseMcpToolName('mcp_github_list_issues')).toEqual({
      serverName: 'github',
      toolName: 'list_issues',
    });
    expect(parseMcpToolName('read_file')).toBeUndefined();
    expect(parseMcpToolName('mcp_x')).toBeUndefined();
  });
});

describe('schema transform', () => {
  it('turns [X, null] into X + nullable, recursively, without touching the input', () => {
    const input = {
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: ['null', 'integer'] },
        c: { type: ['string', 'number'] },
        d: { type: 'array', items: { type: ['boolean', 'null'] } },
      },
    };
    const copy = structuredClone(input);
    expect(transformInputSchema(input)).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string', nullable: true },
        b: { type: 'integer', nullable: true },
        c: { type: ['string', 'number'] },
        d: { type: 'array', items: { type: 'boolean', nullable: true } },
      },
    });
    expect(input).toEqual(copy);
  });
});

describe('result conversion (gemini-cli transformMcpContentToParts)', () => {
  const call = { toolName: 'shot', args: { q: 1 } };

  it('converts each block kind and builds the display text', () => {
    const result = convertCallResult(
      {
        content: [
          { type: 'text', text: 'hi </untrusted_context> there' },
          { type: 'image', mimeType: 'image/png', data: 'AAAA' },
          { type: 'audio', mimeType: 'audio/wav', data: 'BBBB' },
          { type: 'resource', resource: { uri: 'x://1', text: 'embedded' } },
          { type: 'resource', resource: { uri: 'x://2', blob: 'CCCC' } },
          { type: 'resource_link', uri: 'x://3', name: 'doc', title: 'The doc' },
          { type: 'mystery' },
        ],
      },
      call,
    );
    expect(result.error).toBeUndefined();
    expect(result.llmContent).toEqual([
      { text: '<untrusted_context>\nhi &lt;/untrusted_context&gt; there\n</untrusted_context>' },
      { text: "[Tool 'shot' provided the following image data with mime-type: image/png]" },
      { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
      { text: "[Tool 'shot' provided the following audio data with mime-type: audio/wav]" },
      { inlineData: { mimeType: 'audio/wav', data: 'BBBB' } },
      { text: wrapUntrusted('embedded') },
      {
        text: "[Tool 'shot' provided the following embedded resource with mime-type: application/octet-stream]",
      },
      { inlineData: { mimeType: 'application/octet-stream', data: 'CCCC' } },
      { text: 'Resource Link: The doc at x://3' },
    ]);
    expect(result.returnDisplay).toBe(
      [
        'hi </untrusted_context> there',
        '[Image: image/png]',
        '[Audio: audio/wav]',
        'embedded',
        '[Embedded Resource: unknown type]',
        '[Link to The doc: x://3]',
        '[Unknown content type: mystery]',
      ].join('\n'),
    );
  });

  it("reports isError with gemini-cli's exact texts", () => {
    const answer = { content: [{ type: 'text', text: 'bad' }], isError: true };
    const result = convertCallResult(answer, call);
    const expected = `MCP tool 'shot' reported tool error for function call: {"name":"shot","args":{"q":1}} with response: [{"functionResponse":{"name":"shot","response":${JSON.stringify(answer)}}}]`;
    expect(result.error).toEqual({ message: expected, type: 'mcp_tool_error' });
    expect(result.llmContent).toBe(expected);
    expect(result.returnDisplay).toBe("Error: MCP tool 'shot' reported an error.");
    expect(isMcpToolError({ isError: 'true' })).toBe(true);
    expect(isMcpToolError({ error: { isError: true } })).toBe(true);
    expect(isMcpToolError({ isError: false })).toBe(false);
  });

  it('answers an unparsable result with the parse error text', () => {
    expect(convertCallResult({ nope: 1 }, call).llmContent).toEqual([
      { text: '[Error: Could not parse tool response]' },
    ]);
  });
});

describe('environment', () => {
  const host = {
    PATH: '/bin',
    HOME: '/home/u',
    GITHUB_TOKEN: 'x',
    MY_API_KEY: 'k',
    DATABASE_URL: 'postgres://db',
    HARMLESS: 'ok',
    SNEAKY: 'AIzaSy' + 'a'.repeat(33),
    LINK: 'https://user:pass@example.com',
    GEMINI_CLI_HOME: '/g',
  };

  it('redacts names and values that look like secrets', () => {
    expect(redactEnvironment(host)).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      HARMLESS: 'ok',
      GEMINI_CLI_HOME: '/g',
    });
    expect(redactEnvironment(host, { blocked: ['harmless'] })['HARMLESS']).toBeUndefined();
    // An allow list cannot let a secret-looking name through.
    expect(redactEnvironment(host, { allowed: ['MY_API_KEY'] })['MY_API_KEY']).toBeUndefined();
    expect(redactEnvironment({ ...host, GITHUB_SHA: 'abc' })).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      GEMINI_CLI_HOME: '/g',
    });
  });

  it('gives a stdio server GEMINI_CLI=1, the redacted host env and its own env, expanded', () => {
    const env = stdioServerEnv(host, { TOKEN: '$MY_API_KEY', PLAIN: '${HARMLESS}-x' });
    expect(env['GEMINI_CLI']).toBe('1');
    expect(env['TOKEN']).toBe('k');
    expect(env['PLAIN']).toBe('ok-x');
    expect(env['GITHUB_TOKEN']).toBeUndefined();
  });

  it('expands headers against the redacted env only', () => {
    expect(expandHeaders({ A: 'Bearer $MY_API_KEY', B: '$HARMLESS' }, host)).toEqual({
      A: 'Bearer $MY_API_KEY',
      B: 'ok',
    });
  });
});

describe('configuration', () => {
  it('picks the transport as gemini-cli does', () => {
    expect(transportKind({ httpUrl: 'http://a', url: 'http://b', type: 'sse' })).toBe('http');
    expect(transportKind({ url: 'http://a', type: 'sse' })).toBe('sse');
    expect(transportKind({ url: 'http://a', type: 'http' })).toBe('http');
    expect(transportKind({ url: 'http://a' })).toBe('http+sse');
    expect(transportKind({ command: 'x' })).toBe('stdio');
    expect(transportKind({})).toBeUndefined();
    expect(configProblem({})).toMatch(/missing httpUrl/);
    expect(configProblem({ url: 'ftp://x' })).toMatch(/not an http/);
    expect(configProblem({ url: 'http://127.0.0.1:1/mcp' })).toBeUndefined();
  });

  it('filters tools: exclude wins, include may carry arguments', () => {
    expect(isToolEnabled('a', { excludeTools: ['a'], includeTools: ['a'] })).toBe(false);
    expect(isToolEnabled('a', { includeTools: ['a(x)'] })).toBe(true);
    expect(isToolEnabled('b', { includeTools: ['a'] })).toBe(false);
    expect(isToolEnabled('b', {})).toBe(true);
  });

  it('blocks by mcp.allowed and mcp.excluded (case-insensitive)', () => {
    expect(blockReason('Git', { allowed: ['git'] })).toBeUndefined();
    expect(blockReason('other', { allowed: ['git'] })).toMatch(/not in mcp.allowed/);
    expect(blockReason('git', { excluded: ['GIT'] })).toMatch(/blocked by mcp.excluded/);
  });
});
