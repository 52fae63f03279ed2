import type { StandardSchemaV1 } from './standard-schema.js';

/**
 * A plain JSON Schema object describing a tool's arguments (`{ type: 'object', properties, required }`). Written
 * inline, its property types are inferred for the action's parameters; declared elsewhere without `as const`, the
 * parameters are `Record<string, unknown>`-like.
 */
export type JsonSchemaObject = {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
};

/** A zod 3 schema from before Standard Schema support (zod < 3.24): `safeParse`, `_def` and `_output`. */
export interface LegacyZodSchema<Output = unknown> {
  readonly _def: unknown;
  readonly _output: Output;
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
}

/**
 * What `tool({ inputSchema })` accepts: a zod 4 schema, a zod 3 schema (the `zod@3` package or `zod/v3`), any
 * Standard Schema (valibot, arktype, …) or a plain JSON Schema object.
 */
export type ToolInputSchema = StandardSchemaV1 | LegacyZodSchema | JsonSchemaObject;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The TypeScript type a JSON Schema describes (the common keywords; anything else is `unknown`). */
export type JsonSchemaType<S> = S extends { readonly enum: ReadonlyArray<infer E> }
  ? E
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly type: 'string' }
      ? string
      : S extends { readonly type: 'number' | 'integer' }
        ? number
        : S extends { readonly type: 'boolean' }
          ? boolean
          : S extends { readonly type: 'null' }
            ? null
            : S extends { readonly type: 'array'; readonly items: infer I }
              ? Array<JsonSchemaType<I>>
              : S extends { readonly type: 'array' }
                ? unknown[]
                : S extends { readonly properties: infer P }
                  ? JsonSchemaObjectType<S, P>
                  : S extends { readonly type: 'object' }
                    ? Record<string, unknown>
                    : unknown;

type RequiredKeys<S> = S extends { readonly required: ReadonlyArray<infer K> } ? K & string : never;

type JsonSchemaObjectType<S, P> = Simplify<
  { -readonly [K in keyof P & RequiredKeys<S>]: JsonSchemaType<P[K]> } & {
    -readonly [K in Exclude<keyof P, RequiredKeys<S>>]?: JsonSchemaType<P[K]>;
  }
>;

/** The arguments a tool's action receives for an `inputSchema` (the schema's output type). */
export type InferToolInput<S> = S extends { readonly _output: infer O }
  ? O
  : S extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<S>
    : S extends { readonly properties: unknown }
      ? JsonSchemaType<S>
      : Record<string, unknown>;
