import { createRequire } from 'node:module';
import { z } from 'zod';
import { ConfigurationError } from '../../errors.js';
import type { LegacyZodSchema, ToolInputSchema } from '../../core/tool-input-schema.js';
import { DRAFT_2020_12, type JsonSchemaDialect } from './json-schema-validator.js';
import type { StandardSchemaV1 } from '../../core/standard-schema.js';

/** One issue found by a schema's own validator. */
export interface SchemaIssue {
  /** Dotted path (`a.b.0`), or `(arguments)` for the whole object. */
  path: string;
  message: string;
}

/** What the tool adapter needs from an input schema. */
export interface InputSchemaAdapter {
  /** Which kind of schema it is (`zod4`, `zod3`, `standard:<vendor>`, `json-schema`). */
  readonly kind: string;
  /** The declaration sent to the model as `parametersJsonSchema` (no `$schema` key). */
  readonly jsonSchema: Record<string, unknown>;
  /** The dialect of {@link InputSchemaAdapter.jsonSchema}, for the JSON Schema check. */
  readonly dialect: JsonSchemaDialect;
  /**
   * Runs the schema's own validator: the parsed value (defaults and transforms applied) or the issues. Plain JSON
   * Schemas have no validator of their own; their check is the JSON Schema check itself (`undefined` here).
   */
  readonly parse: ((args: unknown) => ParseOutcome | Promise<ParseOutcome>) | undefined;
}

/** The outcome of a schema's own validation. */
export type ParseOutcome = { ok: true; value: unknown } | { ok: false; issues: SchemaIssue[] };

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function standardOf(schema: unknown): StandardSchemaV1.Props | undefined {
  const props =
    isObject(schema) || typeof schema === 'function' ? (schema as Obj)['~standard'] : undefined;
  return isObject(props) && typeof props['validate'] === 'function'
    ? (props as unknown as StandardSchemaV1.Props)
    : undefined;
}

const isZod4 = (schema: unknown): boolean => isObject(schema) && isObject(schema['_zod']);
const isZod3 = (schema: unknown): schema is LegacyZodSchema =>
  isObject(schema) &&
  !isZod4(schema) &&
  isObject(schema['_def']) &&
  typeof (schema as { safeParse?: unknown }).safeParse === 'function';

function pathOf(
  path: ReadonlyArray<PropertyKey | StandardSchemaV1.PathSegment> | undefined,
): string {
  if (path === undefined || path.length === 0) return '(arguments)';
  return path.map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
}

function fromStandardResult(result: StandardSchemaV1.Result<unknown>): ParseOutcome {
  if (result.issues === undefined) return { ok: true, value: result.value };
  return {
    ok: false,
    issues: result.issues.map((i) => ({ path: pathOf(i.path), message: i.message })),
  };
}

function standardParse(props: StandardSchemaV1.Props): InputSchemaAdapter['parse'] {
  return (args) => {
    const result = props.validate(args);
    return result instanceof Promise ? result.then(fromStandardResult) : fromStandardResult(result);
  };
}

function legacyZodParse(schema: LegacyZodSchema): InputSchemaAdapter['parse'] {
  return (args) => {
    const parsed = schema.safeParse(args);
    if (parsed.success) return { ok: true, value: parsed.data };
    const issues = (parsed.error as { issues?: Array<{ path: PropertyKey[]; message: string }> })
      ?.issues ?? [{ path: [], message: 'Invalid input' }];
    return { ok: false, issues: issues.map((i) => ({ path: pathOf(i.path), message: i.message })) };
  };
}

/** The declaration half: JSON Schema from the schema's own JSON Schema support. */
function declarationOf(
  toolName: string,
  schema: unknown,
  standard: StandardSchemaV1.Props | undefined,
): { json: Obj; dialect: JsonSchemaDialect } {
  const fail = (what: string, cause?: unknown): never => {
    throw new ConfigurationError(
      `Tool "${toolName}": its inputSchema cannot be converted to JSON Schema (${what}). Use plain types ` +
        '(objects, strings, numbers, booleans, enums, arrays), or a schema library with JSON Schema support.',
      cause === undefined ? {} : { cause },
    );
  };
  const attempt = (
    convert: () => unknown,
    dialect: JsonSchemaDialect,
  ): { json: Obj; dialect: JsonSchemaDialect } => {
    let json: unknown;
    try {
      json = convert();
    } catch (error) {
      return fail((error as Error).message, error);
    }
    return isObject(json) ? { json, dialect } : fail('the conversion returned no object');
  };
  if (isZod4(schema)) {
    // The schema's own zod (its registry holds `.describe()` texts); zod 4 before 4.2 has no converter: ours.
    const own = standard?.jsonSchema;
    return attempt(
      () =>
        own !== undefined
          ? own.input({ target: 'draft-2020-12', libraryOptions: { unrepresentable: 'any' } })
          : z.toJSONSchema(schema as unknown as z.ZodType, { io: 'input', unrepresentable: 'any' }),
      'draft-2020-12',
    );
  }
  if (isZod3(schema)) {
    const require = createRequire(import.meta.url);
    const { zodToJsonSchema } = require('zod-to-json-schema') as {
      zodToJsonSchema: (s: unknown, o?: Obj) => unknown;
    };
    return attempt(() => zodToJsonSchema(schema), 'draft-07');
  }
  if (standard?.jsonSchema !== undefined) {
    const converter = standard.jsonSchema;
    return attempt(() => {
      try {
        return converter.input({ target: 'draft-2020-12' });
      } catch {
        return converter.input({ target: 'draft-07' });
      }
    }, 'draft-2020-12');
  }
  if (standard?.vendor === 'valibot') return attempt(() => valibotJsonSchema(schema), 'draft-07');
  return fail(
    `the ${standard?.vendor ?? 'unknown'} schema has no JSON Schema support (no ~standard.jsonSchema)`,
  );
}

/** valibot's JSON Schema support lives in `@valibot/to-json-schema`, loaded when it is installed. */
function valibotJsonSchema(schema: unknown): unknown {
  let mod: { toJsonSchema: (s: unknown) => unknown };
  try {
    mod = createRequire(import.meta.url)('@valibot/to-json-schema') as typeof mod;
  } catch (error) {
    throw new Error(
      'install @valibot/to-json-schema, or pass toStandardJsonSchema(schema) from it',
      { cause: error },
    );
  }
  return mod.toJsonSchema(schema);
}

/**
 * Reads a tool's `inputSchema`: zod 4 (its own `toJSONSchema`), zod 3 (`zod@3` or `zod/v3`, via
 * `zod-to-json-schema`), any Standard Schema (its `~standard.jsonSchema`, or `@valibot/to-json-schema` for
 * valibot) or a plain JSON Schema object. Validation is the schema's own (`~standard.validate`, zod's
 * `safeParse`); a plain JSON Schema is checked by Ajv alone.
 *
 * @throws ConfigurationError when it is none of these, has no JSON Schema, or does not describe an object.
 */
export function adaptInputSchema(toolName: string, schema: ToolInputSchema): InputSchemaAdapter {
  const key = schema as object;
  const cached =
    typeof key === 'object' || typeof key === 'function' ? adapters.get(key) : undefined;
  if (cached !== undefined) return cached;
  const adapter = buildAdapter(toolName, schema);
  adapters.set(key, adapter);
  return adapter;
}

const adapters = new WeakMap<object, InputSchemaAdapter>();

/**
 * Reads a schema of any value (not only objects) the way {@link adaptInputSchema} reads a tool's: its JSON Schema
 * and its own validator. A subagent's `output` is one.
 *
 * @throws ConfigurationError when it is no schema or has no JSON Schema.
 */
export function adaptValueSchema(label: string, schema: ToolInputSchema): InputSchemaAdapter {
  return buildAdapter(label, schema, { anyType: true });
}

function buildAdapter(
  toolName: string,
  schema: ToolInputSchema,
  options: { anyType?: boolean } = {},
): InputSchemaAdapter {
  const standard = standardOf(schema);
  let kind: string;
  let parse: InputSchemaAdapter['parse'];
  let declared: { json: Obj; dialect: JsonSchemaDialect };
  if (standard !== undefined || isZod3(schema)) {
    kind = isZod4(schema) ? 'zod4' : isZod3(schema) ? 'zod3' : `standard:${standard?.vendor}`;
    parse = standard ? standardParse(standard) : legacyZodParse(schema as LegacyZodSchema);
    declared = declarationOf(toolName, schema, standard);
  } else if (isObject(schema) && (schema['type'] !== undefined || isObject(schema['properties']))) {
    kind = 'json-schema';
    parse = undefined;
    declared = {
      json: structuredClone(schema),
      dialect: schema['$schema'] === DRAFT_2020_12 ? 'draft-2020-12' : 'draft-07',
    };
  } else {
    throw new ConfigurationError(
      `Tool "${toolName}": inputSchema must be a zod schema (z.object({ a: z.number() }), zod 3 or 4), another ` +
        "Standard Schema (valibot, arktype, …) or a JSON Schema object ({ type: 'object', properties: {…} }).",
    );
  }
  const { $schema: _dropped, ...json } = declared.json;
  if (options.anyType === true) return { kind, jsonSchema: json, dialect: declared.dialect, parse };
  if (json['type'] === undefined && kind === 'json-schema') json['type'] = 'object';
  if (json['type'] !== 'object') {
    throw new ConfigurationError(
      `Tool "${toolName}": inputSchema must describe an object (the model passes named arguments), e.g. ` +
        'z.object({ ... }) or { type: "object", properties: { ... } }.',
    );
  }
  return { kind, jsonSchema: json, dialect: declared.dialect, parse };
}
