import { z } from 'zod';
import { ConfigurationError } from '../../errors.js';
import type { ApprovalRequest } from '../../events.js';

/** A human's answer: run once, run and stop asking for this kind of call in this session, or refuse. */
export const ApprovalDecision = z.enum(['allow', 'allow_always', 'deny']);
/** A human's answer (see {@link ApprovalDecision}). */
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

/**
 * How far an `allow_always` reaches for an MCP tool: that tool (the default), or every tool of its server for the
 * rest of the session (gemini-cli's "Allow all server tools for this session").
 */
export const ApprovalScope = z.enum(['tool', 'server']);
/** How far an `allow_always` reaches (see {@link ApprovalScope}). */
export type ApprovalScope = z.infer<typeof ApprovalScope>;

/**
 * What an approval handler returns: a decision, or a decision with a message for the model (on deny) and, for
 * `allow_always` on an MCP tool, a `scope` (`'server'`: allow the server's every tool for the session).
 */
export const ApprovalResponse = z.union([
  ApprovalDecision,
  z
    .object({
      decision: ApprovalDecision,
      message: z.string().optional(),
      scope: ApprovalScope.optional(),
    })
    .strict(),
]);
/** What an approval handler returns. */
export type ApprovalResponse = z.infer<typeof ApprovalResponse>;

/** A normalised answer. */
export interface NormalizedApproval {
  decision: ApprovalDecision;
  message: string | undefined;
  /** `'server'` when an `allow_always` covers the MCP tool's whole server. */
  scope: ApprovalScope | undefined;
}

/**
 * Asks a human about one call. It may take as long as it needs (there is no timeout); `signal` fires when the
 * stream is aborted, and the call is then cancelled whatever the handler answers.
 *
 * The answer is validated when it arrives (anything but an {@link ApprovalResponse} is a `ConfigurationError`).
 * `Promise<… | string>` is part of the type so that `async () => 'allow'` type-checks without `as const`: TypeScript
 * widens a literal returned by an async function unless its contextual return type is a plain `Promise`.
 */
export type ApprovalHandler = (
  request: ApprovalRequest,
  options: { signal: AbortSignal },
) => ApprovalResponse | Promise<ApprovalResponse | string>;

/** Validates a handler's answer; anything else is a programming error reported as a ConfigurationError. */
export function normalizeApprovalResponse(value: unknown): NormalizedApproval {
  const parsed = ApprovalResponse.safeParse(value);
  if (!parsed.success) {
    throw new ConfigurationError(
      `onApproval returned ${JSON.stringify(value) ?? String(value)}; return 'allow', 'allow_always', 'deny' ` +
        'or { decision, message, scope }.',
    );
  }
  return typeof parsed.data === 'string'
    ? { decision: parsed.data, message: undefined, scope: undefined }
    : { decision: parsed.data.decision, message: parsed.data.message, scope: parsed.data.scope };
}

/** What the model is told when a rule denies a call (gemini-cli's text). */
export function policyDeniedMessage(denyMessage?: string): string {
  const base = 'Tool execution denied by policy.';
  return denyMessage ? `${base} ${denyMessage}` : base;
}

/** What the model is told when a call needs approval and nobody can give it (gemini-cli's headless text). */
export function confirmationUnsupportedMessage(displayName: string): string {
  return `Tool execution for "${displayName}" requires user confirmation, which is not supported in non-interactive mode.`;
}

/** What the model is told when a human refuses a call. */
export function userDeniedMessage(message?: string): string {
  const base = 'User denied execution.';
  return message ? `${base} ${message}` : base;
}
