import { z } from 'zod';
import type { AnyHookOutput } from './hook-types.js';

/** A hook output after checking: the fields of the right type, and one line per field that was dropped. */
export interface CheckedHookOutput {
  /** Undefined when the value was not an object at all. */
  output: AnyHookOutput | undefined;
  problems: string[];
}

/** The schemas the checks use, built on the first hook answer rather than when the SDK is imported (goals P1, P2). */
function buildSchemas(): {
  PlainObject: z.ZodType<Record<string, unknown>>;
  BASE_FIELDS: Record<string, z.ZodType>;
  SPECIFIC_FIELDS: Record<string, z.ZodType>;
} {
  const Decision = z.enum(['allow', 'approve', 'deny', 'block', 'ask']);
  const PlainObject = z.custom<Record<string, unknown>>(
    (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
    'expected an object',
  );

  /** The top-level fields and their schemas. */
  const BASE_FIELDS: Record<string, z.ZodType> = {
    continue: z.boolean(),
    stopReason: z.string(),
    suppressOutput: z.boolean(),
    systemMessage: z.string(),
    decision: Decision,
    reason: z.string(),
  };

  const LLMResponseSchema = z.looseObject({
    text: z.string().optional(),
    candidates: z.array(
      z.looseObject({
        content: z.looseObject({ role: z.string().optional(), parts: z.array(z.string()) }),
        finishReason: z.string().optional(),
        index: z.number().optional(),
        safetyRatings: z
          .array(
            z.looseObject({
              category: z.string(),
              probability: z.string(),
              blocked: z.boolean().optional(),
            }),
          )
          .optional(),
      }),
    ),
    usageMetadata: z
      .looseObject({
        promptTokenCount: z.number().optional(),
        candidatesTokenCount: z.number().optional(),
        totalTokenCount: z.number().optional(),
      })
      .optional(),
  });

  const MessageContent = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]);

  const LLMRequestPatch = z.looseObject({
    model: z.string().optional(),
    messages: z
      .array(z.object({ role: z.enum(['user', 'model', 'system']), content: MessageContent }))
      .optional(),
    config: z
      .looseObject({
        temperature: z.number().optional(),
        maxOutputTokens: z.number().optional(),
        topP: z.number().optional(),
        topK: z.number().optional(),
      })
      .optional(),
  });

  const ToolConfigSchema = z.object({
    mode: z.enum(['AUTO', 'ANY', 'NONE']).optional(),
    allowedFunctionNames: z.array(z.string()).optional(),
  });

  /** The `hookSpecificOutput` fields the SDK acts on, with their schemas (other keys pass through). */
  const SPECIFIC_FIELDS: Record<string, z.ZodType> = {
    hookEventName: z.string(),
    additionalContext: z.string(),
    tool_input: PlainObject,
    tailToolCallRequest: z.object({ name: z.string().min(1), args: PlainObject.default({}) }),
    llm_request: LLMRequestPatch,
    llm_response: LLMResponseSchema,
    toolConfig: ToolConfigSchema,
    clearContext: z.boolean(),
  };
  return { PlainObject, BASE_FIELDS, SPECIFIC_FIELDS };
}

let schemas: ReturnType<typeof buildSchemas> | undefined;

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  const json = JSON.stringify(value);
  const shown = json === undefined ? String(value) : json;
  return shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
}

function checkFields(
  source: Record<string, unknown>,
  schemas: Record<string, z.ZodType>,
  prefix: string,
  problems: string[],
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    const schema = schemas[key];
    if (schema === undefined || value === undefined) {
      kept[key] = value;
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) {
      kept[key] = parsed.data;
    } else {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
      problems.push(
        `"${prefix}${key}" is ${describe(value)}, not what gemini-cli expects (${issue?.message ?? 'invalid'}${where}); it is ignored.`,
      );
    }
  }
  return kept;
}

/**
 * Checks a hook's answer field by field, as the boundary where hook output is read: a field of the wrong type
 * (`"continue": "no"`, `"decision": 42`, a `tool_input` that is not an object) is dropped with a problem line and
 * the other fields still apply. A value that is not a JSON object gives no output at all.
 */
export function checkHookOutput(value: unknown): CheckedHookOutput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      output: undefined,
      problems: [`The hook answered ${describe(value)}, not a JSON object; the answer is ignored.`],
    };
  }
  schemas ??= buildSchemas();
  const { PlainObject, BASE_FIELDS, SPECIFIC_FIELDS } = schemas;
  const problems: string[] = [];
  const { hookSpecificOutput, ...rest } = value as Record<string, unknown>;
  const output = checkFields(rest, BASE_FIELDS, '', problems) as AnyHookOutput;
  if (hookSpecificOutput !== undefined) {
    if (PlainObject.safeParse(hookSpecificOutput).success) {
      output.hookSpecificOutput = checkFields(
        hookSpecificOutput as Record<string, unknown>,
        SPECIFIC_FIELDS,
        'hookSpecificOutput.',
        problems,
      );
    } else {
      problems.push(
        `"hookSpecificOutput" is ${describe(hookSpecificOutput)}, not an object; it is ignored.`,
      );
    }
  }
  return { output, problems };
}

/** `deny` and `block` block. */
export function isBlocking(output: AnyHookOutput | undefined): boolean {
  return output?.decision === 'deny' || output?.decision === 'block';
}

/** `continue: false` stops the agent. */
export function stopsExecution(output: AnyHookOutput | undefined): boolean {
  return output?.continue === false;
}

/** gemini-cli's `getEffectiveReason`: `stopReason`, else `reason`, else `No reason provided`. */
export function effectiveReason(output: AnyHookOutput | undefined): string {
  return output?.stopReason || output?.reason || 'No reason provided';
}

/** `hookSpecificOutput.additionalContext` with `<` and `>` escaped (so it cannot close `<hook_context>`). */
export function sanitizedAdditionalContext(output: AnyHookOutput | undefined): string | undefined {
  const context = output?.hookSpecificOutput?.['additionalContext'];
  if (typeof context !== 'string') return undefined;
  return context.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
