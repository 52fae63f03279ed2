import type {
  AgentTool,
  McpToolFacts,
  ToolCallInfo,
  ToolResult,
  ToolValidation,
} from '../core/agent-tool.js';
import type { SessionContext } from '../core/session-context.js';
import type { ApprovalRequest } from '../events.js';
import { convertCallResult } from './mcp-content.js';
import type { McpConnection } from './mcp-connection.js';
import type { DiscoveredTool } from './mcp-discovery.js';
import { mcpToolName } from './mcp-names.js';

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Why a call failed before the server answered: its message, or the SDK's. */
function failureText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A tool of an MCP server as the loop's {@link AgentTool}: named `mcp_<server>_<tool>`, displayed as
 * `<tool> (<server> MCP Server)`, kind `other`, declared with gemini-cli's transformed schema, validated against
 * the server's own schema, called by its original name, its answer converted block by block. Progress
 * notifications become `tool_progress` events; an abort cancels the request (`notifications/cancelled`).
 */
export class McpTool implements AgentTool {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly kind = 'other' as const;
  readonly parametersJsonSchema: Record<string, unknown>;
  /** The server's annotations (`readOnlyHint`, `destructiveHint`, …), for policy rules. */
  readonly annotations: Readonly<Record<string, unknown>> | undefined;
  /** The server (rules with `mcpName` match it). */
  readonly serverName: string;
  /** The tool's name on the server. */
  readonly serverToolName: string;
  /** Its name on the server and where the server is, for hooks (`mcp_context`). */
  readonly mcpContext: McpToolFacts;

  constructor(
    private readonly connection: McpConnection,
    private readonly discovered: DiscoveredTool,
  ) {
    const { definition } = discovered;
    this.serverName = connection.name;
    this.serverToolName = definition.name;
    const { command, args, cwd, url, httpUrl, tcp } = connection.config;
    const where = url ?? httpUrl;
    this.mcpContext = Object.freeze({
      toolName: definition.name,
      ...(command === undefined ? {} : { command }),
      ...(args === undefined ? {} : { args: [...args] }),
      ...(cwd === undefined ? {} : { cwd }),
      ...(where === undefined ? {} : { url: where }),
      ...(tcp === undefined ? {} : { tcp }),
    });
    this.name = mcpToolName(connection.name, definition.name);
    this.displayName = `${definition.name} (${connection.name} MCP Server)`;
    this.description = definition.description ?? '';
    this.parametersJsonSchema = discovered.declaredSchema;
    this.annotations = definition.annotations
      ? Object.freeze({ ...definition.annotations })
      : undefined;
  }

  /** True when the server marks the tool `readOnlyHint: true`. */
  get readOnly(): boolean {
    return this.annotations?.['readOnlyHint'] === true;
  }

  validate(args: Record<string, unknown>): ToolValidation {
    const problem = this.discovered.check(args);
    return problem === null ? { ok: true, args } : { ok: false, error: problem };
  }

  describe(args: Record<string, unknown>): string {
    return safeJson(args);
  }

  approvalDetails(args: Record<string, unknown>): Partial<ApprovalRequest> {
    return {
      description: `${this.displayName}: ${safeJson(args)}`,
      mcp: {
        serverName: this.serverName,
        toolName: this.serverToolName,
        toolDescription: this.description,
        parameterSchema: this.discovered.definition.inputSchema,
        ...(this.annotations ? { annotations: { ...this.annotations } } : {}),
      },
    };
  }

  async execute(
    args: Record<string, unknown>,
    _ctx: SessionContext,
    call: ToolCallInfo,
  ): Promise<ToolResult> {
    let answer: unknown;
    try {
      answer = await this.connection.callTool(this.serverToolName, args, {
        signal: call.signal,
        onProgress: (progress) =>
          call.emit?.({
            type: 'tool_progress',
            value: { callId: call.callId, name: this.name, ...progress },
          }),
      });
    } catch (error) {
      if (call.signal.aborted) throw error;
      // gemini-cli answers a transport or SDK failure as the server's error result.
      answer = { error: { message: failureText(error), isError: true } };
    }
    return convertCallResult(answer, { toolName: this.serverToolName, args });
  }
}
