import { basename } from 'node:path';
import type { ApprovalRequest } from '../events.js';

/** gemini-cli's Notification `message` and `details` for an approval about to be asked. */
export interface ApprovalNotification {
  message: string;
  details: Record<string, unknown>;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function firstWord(command: string): string {
  return command.trim().split(/\s+/)[0] ?? '';
}

/**
 * Maps an approval request to the serializable confirmation details gemini-cli sends: `type` and `title` always,
 * then `edit` (file and new content), `exec` (command and root command), `mcp` (server and tool) or `info`
 * (prompt and URLs) fields, with its `Tool <title> requires editing|execution|MCP|information` message.
 */
export function approvalNotification(request: ApprovalRequest): ApprovalNotification {
  const { args } = request;
  if (request.kind === 'edit' || request.kind === 'delete' || request.kind === 'move') {
    const filePath = text(args['file_path']) ?? text(args['path']) ?? '';
    const title = `Confirm Edit: ${filePath}`;
    return {
      message: `Tool ${title} requires editing`,
      details: {
        type: 'edit',
        title,
        fileName: filePath === '' ? '' : basename(filePath),
        filePath,
        fileDiff: '',
        originalContent: null,
        newContent: text(args['content']) ?? text(args['new_string']) ?? '',
        isModifying: false,
      },
    };
  }
  if (request.kind === 'execute') {
    const command = text(args['command']) ?? request.description;
    const title = 'Confirm Shell Command';
    return {
      message: `Tool ${title} requires execution`,
      details: { type: 'exec', title, command, rootCommand: firstWord(command) },
    };
  }
  const mcp = /^mcp_([^_]+)_(.+)$/.exec(request.toolName);
  if (mcp) {
    const title = 'Confirm MCP Tool Execution';
    return {
      message: `Tool ${title} requires MCP`,
      details: {
        type: 'mcp',
        title,
        serverName: mcp[1],
        toolName: mcp[2],
        toolDisplayName: request.toolName,
      },
    };
  }
  const title = request.skill
    ? `Activate Skill: ${request.skill.name}`
    : `Confirm: ${request.toolName}`;
  const prompt = text(args['prompt']) ?? request.description;
  const urls = prompt.match(/https?:\/\/\S+/g) ?? [];
  return {
    message: `Tool ${title} requires information`,
    details: { type: 'info', title, prompt, urls },
  };
}
