import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { lazyRequire } from '../../lazy-require.js';

/** `$schema` of draft 2020-12, the dialect zod 4 and Standard JSON Schema (by default here) produce. */
export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** A JSON Schema dialect Ajv is asked to use. */
export type JsonSchemaDialect = 'draft-07' | 'draft-2020-12';

type AjvInstance = Ajv;
type AjvConstructor = new (options: Record<string, unknown>) => AjvInstance;

const validators = new Map<JsonSchemaDialect, AjvInstance>();

type FormatsPlugin = (a: AjvInstance) => void;
interface AjvModules {
  readonly Ajv: AjvConstructor;
  readonly Ajv2020: AjvConstructor;
  readonly addFormats: FormatsPlugin;
}

/** A CommonJS module's export, whether or not it sits behind `default`. */
const exported = <T>(mod: T & { default?: T }): T => mod.default ?? mod;

/** Ajv's modules, loaded on first use (evaluating Ajv costs tens of milliseconds an import should not pay). */
function loadAjv(): AjvModules {
  return {
    Ajv: exported(lazyRequire<AjvConstructor>('ajv')),
    Ajv2020: exported(lazyRequire<AjvConstructor>('ajv/dist/2020')),
    addFormats: exported(lazyRequire<FormatsPlugin>('ajv-formats')),
  };
}

let ajvModules: AjvModules | undefined;

/** Ajv as gemini-cli configures it (unknown keywords allowed, formats checked), loaded on first use. */
function ajvFor(dialect: JsonSchemaDialect): AjvInstance {
  let ajv = validators.get(dialect);
  if (ajv === undefined) {
    ajvModules ??= loadAjv();
    const Ajv = dialect === 'draft-2020-12' ? ajvModules.Ajv2020 : ajvModules.Ajv;
    ajv = new Ajv({ strictSchema: false, logger: false });
    ajvModules.addFormats(ajv);
    validators.set(dialect, ajv);
  }
  return ajv;
}

/** The dialect a schema asks for with `$schema` (draft-07 unless it names 2020-12, as gemini-cli decides). */
export function dialectOf(schema: Record<string, unknown>): JsonSchemaDialect {
  return schema['$schema'] === DRAFT_2020_12 ? 'draft-2020-12' : 'draft-07';
}

/**
 * Compiles a JSON Schema into a check that returns gemini-cli's error text for invalid arguments — Ajv's
 * `errorsText` with `params` as the data name, e.g. `params must have required property 'b'` — or null when they
 * are valid. Returns undefined when Ajv cannot compile the schema (gemini-cli then skips this check too).
 */
export function compileArgumentsCheck(
  schema: Record<string, unknown>,
  dialect: JsonSchemaDialect = dialectOf(schema),
): ((args: unknown) => string | null) | undefined {
  const ajv = ajvFor(dialect);
  const { $schema: _ignored, ...rest } = schema;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(rest);
  } catch {
    return undefined;
  }
  return (args) => {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return 'Value of params must be an object';
    }
    if (validate(args)) return null;
    return ajv.errorsText(validate.errors as ErrorObject[], { dataVar: 'params' });
  };
}

/**
 * Whether a JSON Schema is valid against its dialect's meta-schema: a cheap check (no code is generated) for
 * schemas from elsewhere (MCP servers) before they are declared to the model; compile them when first used.
 */
export function isValidJsonSchema(
  schema: Record<string, unknown>,
  dialect: JsonSchemaDialect = dialectOf(schema),
): boolean {
  const { $schema: _ignored, ...rest } = schema;
  try {
    return ajvFor(dialect).validateSchema(rest) === true;
  } catch {
    return false;
  }
}
