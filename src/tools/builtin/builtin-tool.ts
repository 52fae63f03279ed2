import type { z } from 'zod';
import type { SessionContext } from '../../core/session-context.js';
import type {
  AgentTool,
  ToolCallInfo,
  ToolKind,
  ToolResult,
  ToolValidation,
} from '../../core/agent-tool.js';

/** Everything needed to build one of gemini-cli's built-in tools. */
export interface BuiltinToolSpec<S extends z.ZodType<Record<string, unknown>>> {
  name: string;
  displayName: string;
  kind: ToolKind;
  description: string;
  /** gemini-cli's declaration, sent to the model as is. */
  parametersJsonSchema: Record<string, unknown>;
  /** Validates (and normalises) the model's arguments. */
  schema: S;
  /** Extra checks after the schema passed; a returned string goes back to the model. */
  check?: (args: z.infer<S>) => string | null;
  /** One line saying what the call will do. */
  describe: (args: z.infer<S>) => string;
  /** Runs the call. User-level failures are returned as `{ error }`, never thrown. */
  run: (args: z.infer<S>, ctx: SessionContext, call: ToolCallInfo) => Promise<ToolResult>;
}

/** Renders zod issues as one line the model can act on, e.g. `params/file_path must be string`. */
function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path.length > 0 ? `params/${issue.path.map(String).join('/')}` : 'params';
      return `${where} ${issue.message}`;
    })
    .join('; ');
}

/** Builds an {@link AgentTool} from a {@link BuiltinToolSpec}: zod validation, then the spec's own checks. */
export function defineBuiltinTool<S extends z.ZodType<Record<string, unknown>>>(
  spec: BuiltinToolSpec<S>,
): AgentTool {
  const parse = (args: Record<string, unknown>): ToolValidation => {
    const parsed = spec.schema.safeParse(args);
    if (!parsed.success) return { ok: false, error: formatIssues(parsed.error.issues) };
    const problem = spec.check?.(parsed.data);
    if (problem) return { ok: false, error: problem };
    return { ok: true, args: parsed.data };
  };
  return {
    name: spec.name,
    displayName: spec.displayName,
    kind: spec.kind,
    description: spec.description,
    parametersJsonSchema: spec.parametersJsonSchema,
    validate: parse,
    describe(args) {
      const parsed = spec.schema.safeParse(args);
      return parsed.success ? spec.describe(parsed.data) : spec.name;
    },
    async execute(args, ctx, call) {
      const validation = parse(args);
      if (!validation.ok) {
        return {
          llmContent: validation.error,
          returnDisplay: validation.error,
          error: { message: validation.error, type: 'invalid_tool_params' },
        };
      }
      return spec.run(validation.args as z.infer<S>, ctx, call);
    },
  };
}

/** A failed result: the model sees `message`, a human sees `display` (default: the message). */
export function errorResult(message: string, type: string, display?: string): ToolResult {
  return { llmContent: message, returnDisplay: display ?? message, error: { message, type } };
}
