import type { AgentTool, ToolValidation } from '../core/agent-tool.js';
import type { ToolInputSchema } from '../core/tool-input-schema.js';
import {
  adaptValueSchema,
  type InputSchemaAdapter,
  type SchemaIssue,
} from '../tools/schema/schema-adapter.js';
import type { ResolvedSubagent } from './subagent-types.js';

/** gemini-cli's completion tool of every subagent. */
export const COMPLETE_TASK_TOOL_NAME = 'complete_task';

/** What a successful `complete_task` call submitted. */
export interface SubmittedTask {
  /** The result text the parent gets. */
  result: string;
  /** The validated output (with an `output` schema), else the `result` argument. */
  output: unknown;
}

/** zod's `error.flatten()` shape, from the schema's issues (gemini-cli prints it in its validation error). */
function flatten(issues: readonly SchemaIssue[]): {
  formErrors: string[];
  fieldErrors: Record<string, string[]>;
} {
  const formErrors: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) {
    if (issue.path === '(arguments)') {
      formErrors.push(issue.message);
      continue;
    }
    const key = issue.path.split('.')[0] ?? issue.path;
    if (!Object.hasOwn(fieldErrors, key)) fieldErrors[key] = [];
    fieldErrors[key]?.push(issue.message);
  }
  return { formErrors, fieldErrors };
}

/**
 * Each output schema's adapter (its JSON Schema and validator), made on a definition's first run: converting a zod
 * schema to JSON Schema is ~150 µs, and every run of the subagent built its `complete_task` again.
 */
const outputAdapters = new WeakMap<object, Map<string, InputSchemaAdapter>>();

function outputAdapter(label: string, output: ToolInputSchema): InputSchemaAdapter {
  if (typeof output !== 'object' || output === null) return adaptValueSchema(label, output);
  let byLabel = outputAdapters.get(output);
  if (byLabel === undefined) {
    byLabel = new Map();
    outputAdapters.set(output, byLabel);
  }
  let adapter = byLabel.get(label);
  if (adapter === undefined) {
    adapter = adaptValueSchema(label, output);
    byLabel.set(label, adapter);
  }
  return adapter;
}

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * gemini-cli's `complete_task` for one run: without an output schema it takes `{ result: string }` (blank refused
 * with gemini's text); with one, `{ <outputName>: <schema> }`, validated by the schema (`Output validation
 * failed: …`). A successful call hands the submission to `onSubmit` (the runner then ends the run with `GOAL`).
 */
export function createCompleteTaskTool(
  definition: Pick<ResolvedSubagent, 'name' | 'output' | 'outputName' | 'processOutput'>,
  onSubmit: (task: SubmittedTask) => void,
): AgentTool {
  const { output, outputName, processOutput } = definition;
  const adapter =
    output === undefined
      ? undefined
      : outputAdapter(`${definition.name} output`, output as ToolInputSchema);
  const parametersJsonSchema: Record<string, unknown> =
    adapter === undefined
      ? {
          type: 'object',
          properties: {
            result: {
              type: 'string',
              description:
                'Your final results or findings to return to the orchestrator. ' +
                'Ensure this is comprehensive and follows any formatting requested in your instructions.',
            },
          },
          required: ['result'],
        }
      : {
          type: 'object',
          properties: { [outputName]: adapter.jsonSchema },
          required: [outputName],
        };
  const toText = (value: unknown): string => {
    if (adapter !== undefined && processOutput !== undefined) return processOutput(value);
    return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  };
  return {
    name: COMPLETE_TASK_TOOL_NAME,
    displayName: 'Complete Task',
    description: adapter
      ? 'Call this tool to submit your final answer and complete the task. This is the ONLY way to finish.'
      : 'Call this tool to submit your final findings and complete the task. This is the ONLY way to finish.',
    kind: 'other',
    parametersJsonSchema,
    async validate(args): Promise<ToolValidation> {
      if (adapter === undefined) {
        if (isBlank(args['result'])) {
          return {
            ok: false,
            error:
              'Missing required "result" argument. You must provide your findings when calling complete_task.',
          };
        }
        return { ok: true, args };
      }
      if (args[outputName] === undefined) {
        return { ok: false, error: `Missing required argument '${outputName}' for completion.` };
      }
      const parsed = adapter.parse ? await adapter.parse(args[outputName]) : undefined;
      if (parsed !== undefined && !parsed.ok) {
        return {
          ok: false,
          error: `Output validation failed: ${JSON.stringify(flatten(parsed.issues))}`,
        };
      }
      return {
        ok: true,
        args: { ...args, [outputName]: parsed === undefined ? args[outputName] : parsed.value },
      };
    },
    describe: () => 'Completing task and submitting results.',
    async execute(args) {
      const value = adapter === undefined ? args['result'] : args[outputName];
      onSubmit({ result: toText(value), output: value });
      const text = adapter
        ? 'Output submitted and task completed.'
        : 'Result submitted and task completed.';
      return { llmContent: text, returnDisplay: text };
    },
  };
}
