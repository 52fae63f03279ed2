import { z } from 'zod';
import { ConfigurationError } from '../errors.js';

/**
 * Converts a tool's Zod input schema into the JSON Schema Gemini accepts as
 * `functionDeclarations[].parametersJsonSchema`: zod v4's `z.toJSONSchema` on the input side (so defaulted
 * fields are optional), without the `$schema` key.
 *
 * @throws ConfigurationError when the schema does not describe an object (Gemini needs named parameters).
 */
export function zodToParametersJsonSchema(
  toolName: string,
  schema: z.ZodType,
): Record<string, unknown> {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
  } catch (err) {
    throw new ConfigurationError(
      `Tool "${toolName}": its inputSchema cannot be converted to JSON Schema (${(err as Error).message}). ` +
        `Use plain zod types (objects, strings, numbers, enums, arrays) in inputSchema.`,
      { cause: err },
    );
  }
  const { $schema: _drop, ...rest } = json;
  if (rest['type'] !== 'object') {
    throw new ConfigurationError(
      `Tool "${toolName}": inputSchema must be a z.object(...) (the model passes named arguments); ` +
        `wrap the parameters in z.object({ ... }).`,
    );
  }
  return rest;
}

/**
 * Turns a failed Zod parse into one readable line for the model, e.g.
 * `Invalid arguments for tool "add": b: Invalid input: expected number, received undefined`.
 */
export function formatZodIssues(toolName: string, error: z.ZodError): string {
  const issues = error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(arguments)';
    return `${path}: ${issue.message}`;
  });
  return `Invalid arguments for tool "${toolName}": ${issues.join('; ')}`;
}
