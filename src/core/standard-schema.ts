/**
 * The Standard Schema and Standard JSON Schema interfaces (https://standardschema.dev, `@standard-schema/spec`
 * 1.1.0, MIT). The spec asks libraries to copy these types instead of depending on the package; zod 3.24+, zod 4,
 * valibot, arktype and others implement them, so any of their schemas fits `tool({ inputSchema })`.
 */

/** A schema that can validate: the `~standard` property with `validate`. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

/** Types of the Standard Schema interface. */
// eslint-disable-next-line @typescript-eslint/no-namespace -- the spec's own shape (StandardSchemaV1.Props, …)
export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library (`zod`, `valibot`, `arktype`, …). */
    readonly vendor: string;
    /** Validates an unknown value. */
    readonly validate: (
      value: unknown,
      options?: Options | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
    /** The inferred types of the schema. */
    readonly types?: Types<Input, Output> | undefined;
    /** Standard JSON Schema: present when the library can describe the schema as JSON Schema. */
    readonly jsonSchema?: StandardJSONSchemaV1.Converter | undefined;
  }
  /** Options of `validate`. */
  export interface Options {
    /** Vendor-specific parameters. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** The result of `validate`. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  /** A successful validation. */
  export interface SuccessResult<Output> {
    /** The typed output value. */
    readonly value: Output;
    /** The absence of issues indicates success. */
    readonly issues?: undefined;
  }
  /** A failed validation. */
  export interface FailureResult {
    /** What is wrong. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** One validation issue. */
  export interface Issue {
    /** The error message. */
    readonly message: string;
    /** Where in the value, if anywhere in particular. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A path segment given as an object. */
  export interface PathSegment {
    /** The key of the segment. */
    readonly key: PropertyKey;
  }
  /** The input and output types of a schema. */
  export interface Types<Input = unknown, Output = Input> {
    /** The input type. */
    readonly input: Input;
    /** The output type. */
    readonly output: Output;
  }
  /** The output type of a Standard Schema. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
  >['output'];
}

/** Types of the Standard JSON Schema extension (`~standard.jsonSchema`). */
// eslint-disable-next-line @typescript-eslint/no-namespace -- the spec's own shape
export declare namespace StandardJSONSchemaV1 {
  /** Converts a schema's input or output type to JSON Schema. */
  export interface Converter {
    /** JSON Schema of the input type. May throw when the target is not supported. */
    readonly input: (options: Options) => Record<string, unknown>;
    /** JSON Schema of the output type. May throw when the target is not supported. */
    readonly output: (options: Options) => Record<string, unknown>;
  }
  /** Options of a conversion. */
  export interface Options {
    /** The JSON Schema dialect to produce. */
    readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | (string & Record<never, never>);
    /** Vendor-specific parameters. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
}
