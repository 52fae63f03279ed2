import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { combinePrompt, readPipedStdin } from './read-stdin.js';

describe('combinePrompt', () => {
  it('prepends piped input to the prompt as gemini does', () => {
    expect(combinePrompt('file text\n', 'summarize')).toBe('file text\n\n\nsummarize');
    expect(combinePrompt('', 'summarize')).toBe('summarize');
    expect(combinePrompt('only stdin', undefined)).toBe('only stdin');
    expect(combinePrompt('  \n', undefined)).toBeUndefined();
    expect(combinePrompt('', undefined)).toBeUndefined();
  });
});

describe('readPipedStdin', () => {
  it('reads a pipe to its end', async () => {
    const stream = new PassThrough();
    const reading = readPipedStdin(stream);
    stream.write('hello ');
    stream.end('world');
    await expect(reading).resolves.toBe('hello world');
  });

  it('returns empty for a terminal without reading', async () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true });
    await expect(readPipedStdin(stream)).resolves.toBe('');
  });

  it('gives up on a pipe that never writes', async () => {
    const stream = new PassThrough();
    await expect(readPipedStdin(stream)).resolves.toBe('');
    expect(stream.destroyed).toBe(true);
  });
});
