import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../errors.js';
import type { ApprovalRequest } from '../../events.js';
import {
  createPendingApproval,
  PendingApproval,
  resolvePendingApprovals,
} from './pending-approvals.js';
import { argsHash } from '../stable-stringify.js';

const request = (callId: string, args: Record<string, unknown>): ApprovalRequest => ({
  callId,
  toolName: 'write_file',
  args,
  description: 'Writing',
  kind: 'edit',
});

const t0 = 1_700_000_000_000;
const a = createPendingApproval(request('a', { file_path: 'a.md', content: '1' }), t0);
const b = createPendingApproval(request('b', { file_path: 'b.md', content: '2' }), t0);

describe('durable approvals', () => {
  it('binds a pending call to the hash of its args and survives JSON', () => {
    expect(a.argsHash).toBe(argsHash({ content: '1', file_path: 'a.md' }));
    const restored = PendingApproval.parse(JSON.parse(JSON.stringify(a)));
    expect(
      resolvePendingApprovals([restored], [{ callId: 'a', decision: 'allow' }], t0).results,
    ).toEqual([{ callId: 'a', outcome: 'allow', always: false }]);
  });

  it('applies decisions in pending order; calls without one stay pending', () => {
    const { results, unknownIds } = resolvePendingApprovals(
      [a, b],
      [{ callId: 'b', decision: { decision: 'deny', message: 'No.' } }],
      t0,
    );
    expect(results).toEqual([
      { callId: 'a', outcome: 'pending' },
      { callId: 'b', outcome: 'deny', reason: 'user', message: 'User denied execution. No.' },
    ]);
    expect(unknownIds).toEqual([]);
  });

  it('reports allow_always', () => {
    const { results } = resolvePendingApprovals(
      [a],
      [{ callId: 'a', decision: 'allow_always' }],
      t0,
    );
    expect(results).toEqual([{ callId: 'a', outcome: 'allow', always: true }]);
  });

  it('unknown ids change nothing and are reported', () => {
    const { results, unknownIds } = resolvePendingApprovals(
      [a],
      [{ callId: 'zzz', decision: 'allow' }],
      t0,
    );
    expect(results).toEqual([{ callId: 'a', outcome: 'pending' }]);
    expect(unknownIds).toEqual(['zzz']);
  });

  it('changed args fail closed: stored request, current args, or the hash the human saw', () => {
    const tampered = {
      ...a,
      request: { ...a.request, args: { file_path: '/etc/passwd', content: '1' } },
    };
    const deny = { callId: 'a', outcome: 'deny', reason: 'args_changed' };
    expect(
      resolvePendingApprovals([tampered], [{ callId: 'a', decision: 'allow' }], t0).results[0],
    ).toMatchObject(deny);
    const current = () => ({ file_path: 'a.md', content: 'changed' });
    expect(
      resolvePendingApprovals([a], [{ callId: 'a', decision: 'allow' }], t0, {
        currentArgs: current,
      }).results[0],
    ).toMatchObject(deny);
    expect(
      resolvePendingApprovals(
        [a],
        [{ callId: 'a', decision: 'allow', argsHash: argsHash({ x: 1 }) }],
        t0,
      ).results[0],
    ).toMatchObject(deny);
    expect(
      resolvePendingApprovals([a], [{ callId: 'a', decision: 'allow' }], t0, {
        currentArgs: () => undefined,
      }).results[0],
    ).toMatchObject(deny);
    const same = () => ({ content: '1', file_path: 'a.md' });
    expect(
      resolvePendingApprovals([a], [{ callId: 'a', decision: 'allow', argsHash: a.argsHash }], t0, {
        currentArgs: same,
      }).results[0],
    ).toEqual({ callId: 'a', outcome: 'allow', always: false });
  });

  it('expired approvals fail closed', () => {
    const options = { approvalTtlMs: 60_000 };
    const decisions = [{ callId: 'a', decision: 'allow' as const }];
    expect(resolvePendingApprovals([a], decisions, t0 + 60_000, options).results[0]?.outcome).toBe(
      'allow',
    );
    expect(resolvePendingApprovals([a], decisions, t0 + 60_001, options).results[0]).toMatchObject({
      outcome: 'deny',
      reason: 'expired',
    });
  });

  it('a malformed decision is a typed error', () => {
    expect(() =>
      resolvePendingApprovals([a], [{ callId: 'a', decision: 'ok' as 'allow' }], t0),
    ).toThrow(ConfigurationError);
  });
});
