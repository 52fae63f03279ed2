/** The sandbox limits are agent options: validated, and honoured by the built-in tools. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError, GeminiCliAgent } from '../../src/index.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';

const cwd = mkdtempSync(path.join(os.tmpdir(), 'sandbox-options-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('the sandbox option', () => {
  it('maxReadBytes caps read_file for the agent', async () => {
    writeFileSync(path.join(cwd, 'big.txt'), 'x'.repeat(4096));
    const model = new ScriptedModel([
      callTurn({ name: 'read_file', args: { file_path: 'big.txt' } }),
      textTurn('ok'),
    ]);
    const session = new GeminiCliAgent({
      contentGenerator: model,
      retry: false,
      cwd,
      skillDiscovery: false,
      sandbox: { maxReadBytes: 1024 },
    }).session();
    for await (const event of session.sendStream('read it')) void event;
    const sent = JSON.stringify(model.generateRequests[1]?.contents ?? []);
    expect(sent).toMatch(/File too large|above the workspace read limit/);
  });

  it('rejects a bad value with a ConfigurationError naming the field', () => {
    expect(() => new GeminiCliAgent({ cwd, sandbox: { maxReadBytes: -1 } }).session()).toThrow(
      ConfigurationError,
    );
    expect(() =>
      new GeminiCliAgent({ cwd, sandbox: { maxReadByte: 1 } as never }).session(),
    ).toThrow(/sandbox/);
  });
});
