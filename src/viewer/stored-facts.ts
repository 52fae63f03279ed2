import { z } from 'zod';
import type { MessageRecord, ToolCallRecord } from '../sessions/records.js';
import type {
  TimelineApproval,
  TimelineCompression,
  TimelineDecision,
  TimelineItem,
} from './timeline-types.js';

/** Longest stored text the viewer takes from these fields. */
export const MAX_RESULT = 64 * 1024;

/** Milliseconds from one ISO time to a later one, or undefined. */
export function millisBetween(
  from: string | undefined,
  to: string | undefined,
): number | undefined {
  if (from === undefined || to === undefined) return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

const text = z.string().max(MAX_RESULT);

/** `toolCalls[].sdkApproval` as this SDK writes it (checked: the file may come from anywhere). */
const StoredApproval = z.object({
  decision: z.enum(['allow', 'allow_always', 'deny', 'pending']),
  by: z.enum(['user', 'rule', 'default']),
  timestamp: text.optional(),
  askedAt: text.optional(),
  rule: text.optional(),
  message: text.optional(),
});

const count = z.number().finite().nonnegative();

/** `sdkEvent` of a display line this SDK wrote: a retry or a compression. */
const StoredEvent = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('retry'),
    attempt: count,
    maxAttempts: count,
    delayMs: count,
    phase: text,
    reason: text,
    message: text.optional(),
  }),
  z.object({
    kind: z.literal('compression'),
    trigger: text.optional(),
    status: text.optional(),
    originalTokenCount: count.optional(),
    newTokenCount: count.optional(),
  }),
]);

/** gemini-cli's line after a compression. */
const GEMINI_COMPRESSED = /^Context compressed from \d+% to \d+%\.$/;

/** The stored decision on a call (`toolCalls[].sdkApproval`), when it is well-formed. */
export function approvalOf(record: ToolCallRecord): TimelineApproval | undefined {
  const parsed = StoredApproval.safeParse(record['sdkApproval']);
  if (!parsed.success) return undefined;
  const a = parsed.data;
  return {
    decision: a.decision,
    by: a.by,
    rule: a.rule,
    timestamp: a.timestamp,
    askedAt: a.askedAt,
    waitMs: millisBetween(a.askedAt, a.timestamp),
    message: a.message,
  };
}

/**
 * Who decided about a call: the stored decision when there is one, else what the stored result says.
 */
export function decisionOf(
  status: string,
  error: string | undefined,
  approval: TimelineApproval | undefined,
): TimelineDecision {
  if (approval !== undefined) {
    if (approval.decision === 'pending') return 'waiting for approval';
    if (approval.by === 'user') {
      if (approval.decision === 'deny') return 'denied by user';
      return approval.decision === 'allow_always' ? 'approved always by user' : 'approved by user';
    }
    return approval.decision === 'deny' ? 'denied by policy' : 'allowed by policy';
  }
  if (status === 'pending') return 'pending';
  if (status === 'cancelled') return 'cancelled';
  if (error === undefined) return 'ran';
  if (error.startsWith('User denied execution')) return 'denied by user';
  if (error.startsWith('Tool execution denied by policy')) return 'denied by policy';
  if (error.startsWith('Tool execution denied')) return 'denied';
  return 'ran';
}

export /** An info / warning / error message: a retry or compression this SDK stored, gemini-cli's compression line, else a note. */
function displayLine(message: MessageRecord, shown: string): TimelineItem {
  const base = { id: message.id, timestamp: message.timestamp };
  const event = StoredEvent.safeParse(message['sdkEvent']);
  if (event.success && event.data.kind === 'retry') {
    const e = event.data;
    return {
      kind: 'retry',
      ...base,
      attempt: e.attempt,
      maxAttempts: e.maxAttempts,
      delayMs: e.delayMs,
      phase: e.phase,
      reason: e.reason,
      message: e.message ?? shown,
    };
  }
  if (event.success || (message.type === 'info' && GEMINI_COMPRESSED.test(shown.trim()))) {
    const e = event.success && event.data.kind === 'compression' ? event.data : undefined;
    const compression: TimelineCompression = {
      kind: 'compression',
      ...base,
      text: shown,
      trigger: e?.trigger,
      status: e?.status,
      originalTokens: e?.originalTokenCount,
      newTokens: e?.newTokenCount,
    };
    return compression;
  }
  const level = message.type === 'warning' || message.type === 'error' ? message.type : 'info';
  return { kind: 'note', ...base, level, text: shown };
}
