import type { ToolCallContent } from '@agentclientprotocol/sdk';
import type { ApprovalRequest, SubagentActivityInfo } from '../events.js';
import { diffContent, proposedText, type EditSnapshot } from './edit-diff.js';

/** gemini-cli's message for a call the user cancelled. */
export function cancelledMessage(request: ApprovalRequest): string {
  return `Tool "${request.toolName}" was canceled by the user.`;
}

/** Finish reasons that mean the model refused (safety and similar blocks). */
export const REFUSALS = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
]);

/** Invalid-stream reasons that mean the model (or the API) refused. */
export const INVALID_STREAM_REFUSALS = new Set([
  'SAFETY_BLOCKED',
  'RECITATION_BLOCKED',
  'OTHER_BLOCKED',
  'PROMPT_BLOCKED',
]);

/** `_meta.subagent` of a subagent's tool call: the subagent, its run, the parent's `invoke_agent` call. */
export function subagentMeta(activity: SubagentActivityInfo): Record<string, unknown> {
  return {
    subagent: {
      agentName: activity.agentName,
      agentId: activity.agentId,
      ...(activity.parentCallId === undefined ? {} : { parentToolCallId: activity.parentCallId }),
    },
  };
}

/** What a permission request shows: the edit's diff, else who asks and why (a subagent, a rule, a skill). */
export function permissionContent(
  request: ApprovalRequest,
  call: { name: string; args: Record<string, unknown>; edit?: EditSnapshot },
): ToolCallContent[] {
  if (call.edit) {
    const proposed = proposedText(call.name, call.args, call.edit);
    if (proposed !== undefined) return [diffContent(call.edit, proposed)];
  }
  const lines = [
    request.subagent ? `Requested by subagent '${request.subagent}'` : undefined,
    request.reason ? `Asked by: ${request.reason}` : undefined,
  ];
  if (request.skill) {
    lines.push(
      `Skill "${request.skill.name}": ${request.skill.description}`,
      `Location: ${request.skill.location}`,
      request.skill.folderTree,
    );
  }
  const text = lines.filter((l): l is string => l !== undefined && l !== '').join('\n');
  return text === '' ? [] : [{ type: 'content', content: { type: 'text', text } }];
}
