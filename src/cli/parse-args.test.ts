import { describe, expect, it } from 'vitest';
import { CliUsageError } from './cli-errors.js';
import { parseCliArgs, requestedOutputFormat } from './parse-args.js';

function usageError(argv: string[]): CliUsageError {
  try {
    parseCliArgs(argv);
  } catch (error) {
    if (error instanceof CliUsageError) return error;
    throw error;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

describe('parseCliArgs', () => {
  it('reads the gemini -p flags, short and long', () => {
    const options = parseCliArgs([
      '-p',
      'hello',
      '-m',
      'gemini-2.5-flash',
      '-o',
      'stream-json',
      '--approval-mode',
      'plan',
      '--fake-responses',
      'a.jsonl',
      '--record-responses',
      'b.jsonl',
      '--skills',
      'one',
      '--skills',
      'two',
      '--include-directories',
      'x,y',
      '--include-directories',
      'z',
      '--max-turns',
      '7',
      '--session-id',
      'my_id-1',
    ]);
    expect(options).toMatchObject({
      prompt: 'hello',
      model: 'gemini-2.5-flash',
      outputFormat: 'stream-json',
      approvalMode: 'plan',
      fakeResponses: 'a.jsonl',
      recordResponses: 'b.jsonl',
      skills: ['one', 'two'],
      includeDirectories: ['x', 'y', 'z'],
      maxTurns: 7,
      sessionId: 'my_id-1',
      listSessions: false,
      showConfig: false,
    });
  });

  it('defaults to text output and no approval mode', () => {
    const options = parseCliArgs(['-p', 'hi']);
    expect(options.outputFormat).toBe('text');
    expect(options.approvalMode).toBeUndefined();
    expect(options.resume).toBeUndefined();
  });

  it('maps -y to the yolo approval mode', () => {
    expect(parseCliArgs(['-y', '-p', 'x']).approvalMode).toBe('yolo');
    expect(parseCliArgs(['--yolo', '-p', 'x']).approvalMode).toBe('yolo');
  });

  it('treats a bare -r / --resume as latest, and keeps a given value', () => {
    expect(parseCliArgs(['-r']).resume).toBe('latest');
    expect(parseCliArgs(['--resume', '-p', 'go on']).resume).toBe('latest');
    expect(parseCliArgs(['--resume=', '-p', 'go on']).resume).toBe('latest');
    expect(parseCliArgs(['-r', '3', '-p', 'go on']).resume).toBe('3');
    expect(parseCliArgs(['--resume', 'abc-123', '-p', 'go on']).resume).toBe('abc-123');
  });

  it('joins positional words into the prompt', () => {
    const options = parseCliArgs(['what', 'is', 'this?']);
    expect(options.positionalPrompt).toBe('what is this?');
    expect(options.prompt).toBeUndefined();
  });

  it('rejects an unknown flag in one line naming the flag, with a pointer to --help', () => {
    const error = usageError(['--frobnicate', '-p', 'x']);
    expect(error.code).toBe('CLI_FLAGS');
    expect(error.message).toContain('--frobnicate');
    expect(error.message).toContain('--help');
    expect(error.message).not.toContain('\n');
  });

  it('every flag error is a CLI_FLAGS error (exit 1, as gemini)', () => {
    for (const argv of [
      ['-o', 'yaml'],
      ['-p'],
      ['-y', '--approval-mode', 'plan'],
      ['-p', 'a', '-i', 'b'],
    ]) {
      expect(usageError(argv).code).toBe('CLI_FLAGS');
    }
  });

  it('reads -e/-l, -i, -s and the raw output flags', () => {
    const options = parseCliArgs(['-e', 'a,b', '--extensions', 'c', '-l', '-s', '-i', 'hello']);
    expect(options).toMatchObject({
      extensions: ['a', 'b', 'c'],
      listExtensions: true,
      sandbox: true,
      promptInteractive: 'hello',
      rawOutput: false,
    });
    expect(parseCliArgs(['-p', 'x']).extensions).toBeUndefined();
    expect(parseCliArgs(['-p', 'x', '--raw-output'])).toMatchObject({
      rawOutput: true,
      acceptRawOutputRisk: false,
    });
    // gemini: --accept-raw-output-risk alone also prints raw output, without the warning.
    expect(parseCliArgs(['-p', 'x', '--accept-raw-output-risk'])).toMatchObject({
      rawOutput: true,
      acceptRawOutputRisk: true,
    });
  });

  it('rejects bad values and conflicting flags', () => {
    expect(usageError(['-o', 'yaml']).message).toContain('text, json, stream-json');
    expect(usageError(['--approval-mode', 'always']).message).toContain(
      'default, auto_edit, yolo, plan',
    );
    expect(usageError(['-y', '--approval-mode', 'plan']).message).toContain('--yolo');
    expect(usageError(['-r', 'latest', '--session-id', 'abc']).message).toContain('--session-id');
    expect(usageError(['--max-turns', '0']).message).toContain('--max-turns');
    expect(usageError(['--max-turns', 'two']).message).toContain('--max-turns');
    expect(usageError(['--session-id', 'a b']).message).toContain('--session-id');
    expect(usageError(['-p', 'x', 'also positional']).message).toContain('positional');
    expect(usageError(['-p']).message).toContain('--prompt');
    expect(usageError(['--fake-responses', ' ']).message).toContain('--fake-responses');
  });

  it('reads --acp, its deprecated alias and --acp-terminal, and refuses prompts and session flags with them', () => {
    expect(parseCliArgs(['--acp'])).toMatchObject({
      acp: true,
      acpDeprecatedFlag: false,
      acpTerminal: false,
    });
    expect(parseCliArgs(['--experimental-acp'])).toMatchObject({
      acp: true,
      acpDeprecatedFlag: true,
    });
    expect(
      parseCliArgs([
        '--acp',
        '--acp-terminal',
        '-m',
        'gemini-2.5-flash',
        '--approval-mode',
        'yolo',
      ]),
    ).toMatchObject({
      acp: true,
      acpTerminal: true,
      model: 'gemini-2.5-flash',
      approvalMode: 'yolo',
    });
    expect(usageError(['--acp', '-p', 'hi']).message).toContain('cannot be combined with a prompt');
    expect(usageError(['--acp', '--resume']).message).toContain('--resume');
    expect(usageError(['--acp', '-o', 'json']).message).toContain('--output-format');
    expect(usageError(['--acp-terminal']).message).toContain('only applies with --acp');
  });
});

describe('gemini-cli 0.61 policy and trust flags', () => {
  it('--policy, --admin-policy, --allowed-tools and --allowed-mcp-server-names take repeats and commas', () => {
    const options = parseCliArgs([
      '-p',
      'x',
      '--policy',
      'a.toml,b',
      '--policy',
      'c',
      '--admin-policy',
      '/etc/x',
      '--allowed-tools',
      'run_shell_command(git status),read_file',
      '--allowed-mcp-server-names',
      'github',
      '--skip-trust',
    ]);
    expect(options.policy).toEqual(['a.toml', 'b', 'c']);
    expect(options.adminPolicy).toEqual(['/etc/x']);
    expect(options.allowedTools).toEqual(['run_shell_command(git status)', 'read_file']);
    expect(options.allowedMcpServerNames).toEqual(['github']);
    expect(options.skipTrust).toBe(true);
    const none = parseCliArgs(['-p', 'x']);
    expect([none.policy, none.adminPolicy, none.allowedTools, none.skipTrust]).toEqual([
      undefined,
      undefined,
      undefined,
      false,
    ]);
  });

  it('--base-url takes an http(s) URL; --api-key-env the name of a variable, never the key', () => {
    const options = parseCliArgs([
      '--base-url',
      'http://localhost:8000/v1',
      '--api-key-env',
      'VLLM_API_KEY',
      '-m',
      'Qwen/Qwen3-8B',
    ]);
    expect([options.baseUrl, options.apiKeyEnv, options.model]).toEqual([
      'http://localhost:8000/v1',
      'VLLM_API_KEY',
      'Qwen/Qwen3-8B',
    ]);
    expect(usageError(['--base-url', 'ftp://x/v1']).message).toContain('http(s) URL');
    expect(usageError(['--base-url', 'localhost:8000']).message).toContain('http(s) URL');
    expect(usageError(['--api-key-env', 'KEY']).message).toContain('only applies with --base-url');
    const pasted = usageError(['--base-url', 'http://h/v1', '--api-key-env', 'sk-proj-s3cr3t']);
    expect(pasted.message).toContain('not the key itself');
    expect(pasted.message).not.toContain('s3cr3t');
  });
});

describe('requestedOutputFormat (read before strict parsing, for error reports)', () => {
  it.each([
    [['-o', 'json', '--bogus'], 'json'],
    [['--bogus', '--output-format', 'stream-json'], 'stream-json'],
    [['--output-format=json'], 'json'],
    [['-ojson'], 'json'],
    [['-o=stream-json'], 'stream-json'],
    [['-o', 'xml'], 'text'],
    [['-o', 'json', '-o', 'xml'], 'json'],
    [['-p', '-o', 'json'], 'text'],
    [['-p', 'x', '--', '-o', 'json'], 'text'],
    [['-o'], 'text'],
    [[], 'text'],
  ])('%j → %s', (argv, format) => {
    expect(requestedOutputFormat(argv)).toBe(format);
  });
});
