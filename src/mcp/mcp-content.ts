import type { Part } from '@google/genai';
import type { ToolResult } from '../core/agent-tool.js';

/** The error type of a call the server answered with `isError` (gemini-cli's `MCP_TOOL_ERROR`). */
export const MCP_TOOL_ERROR = 'mcp_tool_error';

/** gemini-cli's `wrapUntrusted`: text from a server, fenced so the model treats it as data. */
export function wrapUntrusted(text: string): string {
  const escaped = text.replaceAll('</untrusted_context>', '&lt;/untrusted_context&gt;');
  return `<untrusted_context>\n${escaped}\n</untrusted_context>`;
}

type Block = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function blockToParts(block: Block, toolName: string): Part[] {
  switch (block['type']) {
    case 'text': {
      const text = str(block['text']);
      return text === undefined ? [] : [{ text: wrapUntrusted(text) }];
    }
    case 'image':
    case 'audio': {
      const mimeType = str(block['mimeType']);
      const data = str(block['data']);
      if (mimeType === undefined || data === undefined) return [];
      return [
        {
          text: `[Tool '${toolName}' provided the following ${String(block['type'])} data with mime-type: ${mimeType}]`,
        },
        { inlineData: { mimeType, data } },
      ];
    }
    case 'resource': {
      const resource = (block['resource'] ?? {}) as Block;
      const text = str(resource['text']);
      if (text) return [{ text: wrapUntrusted(text) }];
      const blob = str(resource['blob']);
      if (blob) {
        const mimeType = str(resource['mimeType']) || 'application/octet-stream';
        return [
          {
            text: `[Tool '${toolName}' provided the following embedded resource with mime-type: ${mimeType}]`,
          },
          { inlineData: { mimeType, data: blob } },
        ];
      }
      return [];
    }
    case 'resource_link':
      return [
        {
          text: `Resource Link: ${str(block['title']) || str(block['name'])} at ${str(block['uri'])}`,
        },
      ];
    default:
      return [];
  }
}

function blockToDisplay(block: Block): string {
  switch (block['type']) {
    case 'text':
      return str(block['text']) ?? '';
    case 'image':
      return `[Image: ${str(block['mimeType'])}]`;
    case 'audio':
      return `[Audio: ${str(block['mimeType'])}]`;
    case 'resource_link':
      return `[Link to ${str(block['title']) || str(block['name'])}: ${str(block['uri'])}]`;
    case 'resource': {
      const resource = (block['resource'] ?? {}) as Block;
      const text = str(resource['text']);
      if (text) return text;
      return `[Embedded Resource: ${str(resource['mimeType']) || 'unknown type'}]`;
    }
    default:
      return `[Unknown content type: ${String(block['type'])}]`;
  }
}

function blocksOf(result: unknown): Block[] | undefined {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return undefined;
  return content.filter((b): b is Block => typeof b === 'object' && b !== null);
}

/**
 * Whether a `tools/call` answer reports a failure: top-level `isError` true (or `"true"`), or gemini-cli's legacy
 * nested `error.isError`.
 */
export function isMcpToolError(result: unknown): boolean {
  if (typeof result !== 'object' || result === null) return false;
  const record = result as Record<string, unknown>;
  if (record['isError'] === true || record['isError'] === 'true') return true;
  const nested = record['error'];
  if (typeof nested !== 'object' || nested === null) return false;
  const flag = (nested as Record<string, unknown>)['isError'];
  return flag === true || flag === 'true';
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Converts a `tools/call` answer to a {@link ToolResult} as gemini-cli does: an error answer becomes
 * `MCP tool '<tool>' reported tool error for function call: … with response: …`; otherwise each content block
 * becomes parts (text wrapped in `<untrusted_context>`, images and audio as a label plus `inlineData`, embedded
 * resources, resource links), unknown blocks are dropped, and a display text is built block by block.
 */
export function convertCallResult(
  result: unknown,
  call: { toolName: string; args: Record<string, unknown> },
): ToolResult {
  const response = [{ functionResponse: { name: call.toolName, response: result } }];
  if (isMcpToolError(result)) {
    const message =
      `MCP tool '${call.toolName}' reported tool error for function call: ` +
      `${safeJson({ name: call.toolName, args: call.args })} with response: ${safeJson(response)}`;
    return {
      llmContent: message,
      returnDisplay: `Error: MCP tool '${call.toolName}' reported an error.`,
      error: { message, type: MCP_TOOL_ERROR },
    };
  }
  const blocks = blocksOf(result);
  if (blocks === undefined) {
    return {
      llmContent: [{ text: '[Error: Could not parse tool response]' }],
      returnDisplay: '```json\n' + JSON.stringify(response, null, 2) + '\n```',
    };
  }
  return {
    llmContent: blocks.flatMap((block) => blockToParts(block, call.toolName)),
    returnDisplay: blocks.map(blockToDisplay).join('\n'),
  };
}
