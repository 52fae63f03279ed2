import type { PermissionOption } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import type { ApprovalRequest } from '../events.js';

/** gemini-cli's option ids (its `ToolConfirmationOutcome` values), so editors that know them keep working. */
export const PermissionOptionId = {
  ProceedOnce: 'proceed_once',
  ProceedAlways: 'proceed_always',
  ProceedAlwaysTool: 'proceed_always_tool',
  ProceedAlwaysServer: 'proceed_always_server',
  Cancel: 'cancel',
} as const;

/** What the human chose, in the SDK's terms; `cancelled` means the prompt turn is being cancelled. */
export type PermissionChoice =
  | {
      kind: 'decision';
      decision: 'allow' | 'allow_always' | 'deny';
      message?: string;
      /** `'server'`: "Allow all server tools for this session" (an MCP tool's whole server). */
      scope?: 'server';
    }
  | { kind: 'cancelled' };

/** The shape of a `session/request_permission` answer (checked: the SDK does not validate responses). */
const PermissionResponse = z.object({
  outcome: z.discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('cancelled') }),
    z.object({ outcome: z.literal('selected'), optionId: z.string() }),
  ]),
});

/**
 * gemini-cli's option sets (spec §2.6): "Allow for this session" for edits, shell commands and other tools
 * ("Allow all server tools for this session" and "Allow tool for this session" for MCP tools), then "Allow" and
 * "Reject". `alwaysAllow: false` leaves the
 * session-wide option out. (gemini-cli's "all future sessions" options need its permanent-approval setting;
 * the SDK keeps such choices in policy files instead, so they are not offered here.)
 */
export function permissionOptions(
  request: Pick<ApprovalRequest, 'toolName' | 'kind' | 'mcp'>,
  alwaysAllow = true,
): PermissionOption[] {
  const options: PermissionOption[] = [];
  if (alwaysAllow) {
    if (request.mcp !== undefined || request.toolName.startsWith('mcp_')) {
      if (request.mcp !== undefined) {
        options.push({
          optionId: PermissionOptionId.ProceedAlwaysServer,
          name: 'Allow all server tools for this session',
          kind: 'allow_always',
        });
      }
      options.push({
        optionId: PermissionOptionId.ProceedAlwaysTool,
        name: 'Allow tool for this session',
        kind: 'allow_always',
      });
    } else {
      options.push({
        optionId: PermissionOptionId.ProceedAlways,
        name: 'Allow for this session',
        kind: 'allow_always',
      });
    }
  }
  options.push(
    { optionId: PermissionOptionId.ProceedOnce, name: 'Allow', kind: 'allow_once' },
    { optionId: PermissionOptionId.Cancel, name: 'Reject', kind: 'reject_once' },
  );
  return options;
}

/**
 * Maps the client's answer to a decision, failing closed: an answer that is malformed or names an option that
 * was not offered is a refusal (with a message saying so), never an approval.
 */
export function permissionChoice(
  response: unknown,
  offered: readonly PermissionOption[],
): PermissionChoice {
  const parsed = PermissionResponse.safeParse(response);
  if (!parsed.success) {
    return {
      kind: 'decision',
      decision: 'deny',
      message: 'The editor sent a malformed permission answer, so the call was refused.',
    };
  }
  const { outcome } = parsed.data;
  if (outcome.outcome === 'cancelled') return { kind: 'cancelled' };
  const option = offered.find((o) => o.optionId === outcome.optionId);
  if (option === undefined) {
    return {
      kind: 'decision',
      decision: 'deny',
      message: `The editor chose an option that was not offered (${JSON.stringify(outcome.optionId)}), so the call was refused.`,
    };
  }
  switch (option.kind) {
    case 'allow_always':
      return option.optionId === PermissionOptionId.ProceedAlwaysServer
        ? { kind: 'decision', decision: 'allow_always', scope: 'server' }
        : { kind: 'decision', decision: 'allow_always' };
    case 'allow_once':
      return { kind: 'decision', decision: 'allow' };
    default:
      return { kind: 'decision', decision: 'deny' };
  }
}
