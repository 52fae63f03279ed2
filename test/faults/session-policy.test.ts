/**
 * Fault catalogue — "always allow" grants survive a resume: the rules a human granted in a session are stored with
 * it (`{"$set":{"sessionPolicy":…}}` in its file) before the next record, so a resumed session — another agent,
 * another process, after a crash — decides the same calls without asking again. A stored rule that no longer
 * validates is skipped with a warning; the session still resumes.
 */
import { appendFile, readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GeminiCliAgent, type GeminiCliAgentOptions } from '../../src/index.js';
import type { Logger } from '../../src/logger.js';
import { ScriptedModel, callTurn, textTurn } from '../../src/testing/index.js';
import { collect, expectStoredHistory, sessionFileOf, tempProject } from './fault-helpers.js';

/** An agent whose edits the default policy asks about (write_file in mode `default`). */
function options(cwd: string, extra: GeminiCliAgentOptions): GeminiCliAgentOptions {
  return { cwd, skillDiscovery: false, retry: false, ...extra };
}

const noteCall = (text: string) =>
  callTurn({ name: 'write_file', args: { file_path: `${text}.txt`, content: text } });

/** The notes written so far (the `<name>.txt` files of the project). */
async function written(cwd: string): Promise<string[]> {
  return (await readdir(cwd))
    .filter((n) => n.endsWith('.txt'))
    .map((n) => n.slice(0, -4))
    .sort();
}

/** The parsed lines of that file. */
async function recordsOf(cwd: string, sessionId: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(await sessionFileOf(cwd, sessionId), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('"always allow" grants are stored with the session', () => {
  it('granted through onApproval: a resumed session in another agent runs the tool without asking', async () => {
    const cwd = await tempProject();
    let asked = 0;
    const a = new GeminiCliAgent(
      options(cwd, {
        onApproval: () => {
          asked++;
          return 'allow_always';
        },
        contentGenerator: new ScriptedModel([noteCall('one'), textTurn('ok')]),
      }),
    );
    const first = a.session({ sessionId: 'grants-onapproval' });
    await first.send('note one');
    expect(asked).toBe(1);
    const granted = first.policy.rules.toJSON();
    expect(granted).toHaveLength(1);
    await first.close();

    let askedAgain = 0;
    const b = new GeminiCliAgent(
      options(cwd, {
        onApproval: () => {
          askedAgain++;
          return 'deny';
        },
        contentGenerator: new ScriptedModel([noteCall('two'), textTurn('ok again')]),
      }),
    );
    const resumed = await b.resumeSession('grants-onapproval');
    // Restored as soon as the session is resumed, before its first turn.
    expect(resumed.policy.rules.toJSON()).toEqual(granted);
    await resumed.send('note two');
    expect(askedAgain).toBe(0);
    expect(await written(cwd)).toEqual(['one', 'two']);
    expect(resumed.approvalLog.map((e) => [e.toolName, e.decision, e.by])).toEqual([
      ['write_file', 'allow', 'rule'],
    ]);
    await resumed.close();
    await expectStoredHistory(cwd, 'grants-onapproval', resumed.getHistory());
    // A new session of the same project does not inherit them.
    const other = b.session();
    expect((await other.policy.explain({ name: 'write_file' })).decision).toBe('ask_user');
    await other.close();
  });

  it('granted through resolveApprovals (paused approvals): stored before the tool runs, kept after a resume', async () => {
    const cwd = await tempProject();
    const a = new GeminiCliAgent(
      options(cwd, {
        approvals: 'pause',
        contentGenerator: new ScriptedModel([noteCall('one'), textTurn('ok')]),
      }),
    );
    const first = a.session({ sessionId: 'grants-paused' });
    const paused = await collect(first.sendStream('note one'));
    expect(paused.events.at(-1)?.type).toBe('approval_required');
    const [pending] = first.pendingApprovals;
    await collect(
      first.resolveApprovals([{ callId: pending?.callId ?? '', decision: 'allow_always' }]),
    );
    expect(await written(cwd)).toEqual(['one']);
    // The grant is on disk as a metadata update, next to the turn it was given in.
    const stored = (await recordsOf(cwd, 'grants-paused')).filter(
      (r) => typeof r['$set'] === 'object' && 'sessionPolicy' in (r['$set'] as object),
    );
    expect(stored.at(-1)).toMatchObject({
      $set: {
        sessionPolicy: { version: 1, rules: [{ toolName: 'write_file', decision: 'allow' }] },
      },
    });
    // Not closed: the session is idle, so another agent takes it over with its grants.
    const b = new GeminiCliAgent(
      options(cwd, {
        approvals: 'pause',
        contentGenerator: new ScriptedModel([noteCall('two'), textTurn('done')]),
      }),
    );
    const resumed = await b.resumeSession('grants-paused');
    const { events, error } = await collect(resumed.sendStream('note two'));
    expect(error).toBeUndefined();
    expect(events.some((e) => e.type === 'approval_required')).toBe(false);
    expect(await written(cwd)).toEqual(['one', 'two']);
    await first.close();
    await resumed.close();
    await expectStoredHistory(cwd, 'grants-paused', resumed.getHistory());
  });

  it('a stored grant that no longer validates is skipped with a warning; the session resumes and asks again', async () => {
    const cwd = await tempProject();
    const a = new GeminiCliAgent(
      options(cwd, {
        onApproval: () => 'allow_always',
        contentGenerator: new ScriptedModel([noteCall('one'), textTurn('ok')]),
      }),
    );
    const first = a.session({ sessionId: 'grants-tampered' });
    await first.send('note one');
    await first.close();
    // Edited by hand: one rule broken, one still fine.
    const bad = {
      version: 1,
      rules: [{ toolName: 42 }, { toolName: 'write_file', decision: 'allow', modes: ['default'] }],
    };
    await appendFile(
      await sessionFileOf(cwd, 'grants-tampered'),
      `${JSON.stringify({ $set: { sessionPolicy: bad } })}\n`,
    );

    const warnings: string[] = [];
    const logger: Logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (message) => warnings.push(message),
      error: () => undefined,
    };
    const b = new GeminiCliAgent(
      options(cwd, {
        logger,
        onApproval: () => 'deny',
        contentGenerator: new ScriptedModel([noteCall('two'), textTurn('ok')]),
      }),
    );
    const resumed = await b.resumeSession('grants-tampered');
    expect(resumed.policy.rules.toJSON()).toEqual([
      { toolName: 'write_file', decision: 'allow', modes: ['default'] },
    ]);
    expect(warnings.some((w) => /no longer validates/.test(w))).toBe(true);
    await resumed.send('note two');
    expect(await written(cwd)).toEqual(['one', 'two']);
    await resumed.close();

    // Not an object at all: ignored with a warning, nothing restored.
    await appendFile(
      await sessionFileOf(cwd, 'grants-tampered'),
      `${JSON.stringify({ $set: { sessionPolicy: 'x' } })}\n`,
    );
    const c = new GeminiCliAgent(options(cwd, { logger }));
    const again = await c.resumeSession('grants-tampered');
    expect(again.policy.rules.toJSON()).toEqual([]);
    expect(warnings.some((w) => /stored policy state/.test(w))).toBe(true);
    await again.close();
  });
});
