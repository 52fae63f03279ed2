import type {
  AgentTool,
  ToolCallInfo,
  ToolKind,
  ToolResult,
  ToolValidation,
} from '../core/agent-tool.js';
import type { SessionContext } from '../core/session-context.js';
import { ModelVisibleError } from './model-visible-error.js';
import type { InferToolInput, ToolInputSchema } from '../core/tool-input-schema.js';
import { compileArgumentsCheck } from './schema/json-schema-validator.js';
import {
  adaptInputSchema,
  type InputSchemaAdapter,
  type ParseOutcome,
} from './schema/schema-adapter.js';
import type { Tool } from '../core/tool-definition.js';
import { renderToolOutput } from './tool-output.js';

/** The function declaration the model receives for a tool. */
export interface SdkToolDeclaration {
  name: string;
  description: string;
  parametersJsonSchema: Record<string, unknown>;
}

/** Options of {@link SdkToolInvocation.execute} (the reference's `ExecuteOptions`). */
export interface SdkToolExecuteOptions {
  /** Passed to the action's context as `signal` when the invocation has a context. */
  abortSignal?: AbortSignal;
  /** Accepted for compatibility; SDK tools do not stream output. */
  updateOutput?: (output: unknown) => void;
}

/** One call of an {@link SdkTool} with fixed parameters: the reference SDK's `SdkToolInvocation`. */
export class SdkToolInvocation<S extends ToolInputSchema = ToolInputSchema> {
  constructor(
    /** The (validated) parameters the action receives. */
    readonly params: InferToolInput<S>,
    private readonly tool: SdkTool<S>,
    private readonly context: SessionContext | undefined,
    private readonly toolName: string,
  ) {}

  /** `Executing <name>...`, as gemini-cli shows SDK tools. */
  getDescription(): string {
    return `Executing ${this.toolName}...`;
  }

  /**
   * Runs the action. A string result is the output as is, anything else pretty-printed JSON; a
   * `ModelVisibleError` (or any error with `sendErrorsToModel`) becomes `{ llmContent: 'Error: …', error }`;
   * any other error is thrown.
   */
  execute(_options: SdkToolExecuteOptions = {}): Promise<ToolResult> {
    return this.tool.run(this.params, this.context);
  }
}

const cache = new WeakMap<Tool, SdkTool>();

/**
 * A custom tool made with `tool()`, ready for the loop (an `AgentTool`): its declaration from the input schema,
 * validation (the declared JSON Schema with gemini-cli's wording, then the schema's own validator), result
 * rendering and the error rules (`ModelVisibleError` / `sendErrorsToModel` become `{ error }` results; any other
 * throw fails the stream). It also has the reference SDK's `SdkTool` surface — `schema`, `build(params)`,
 * `bindContext(ctx)`, `createInvocationWithContext(params, messageBus, ctx)` — so tests written for it run.
 */
export class SdkTool<S extends ToolInputSchema = ToolInputSchema> implements AgentTool {
  readonly name: string;
  readonly displayName: string;
  readonly description: string;
  readonly kind: ToolKind;
  readonly parametersJsonSchema: Record<string, unknown>;
  private readonly adapter: InputSchemaAdapter;
  private argumentsCheck: ((args: unknown) => string | null) | undefined | null = null;

  /**
   * @param definition - A tool made with `tool()`.
   * @param _messageBus - Ignored (the reference passes gemini-cli's message bus here).
   * @param _agent - Ignored (the reference passes the agent here).
   * @param context - The context direct invocations receive (see {@link SdkTool.bindContext}).
   * @throws ConfigurationError when the input schema is unusable.
   */
  constructor(
    readonly definition: Tool<S>,
    _messageBus?: unknown,
    _agent?: unknown,
    private readonly context?: SessionContext,
  ) {
    this.name = definition.name;
    this.displayName = definition.name;
    this.description = definition.description;
    this.kind = definition.kind ?? 'other';
    this.adapter = adaptInputSchema(definition.name, definition.inputSchema);
    this.parametersJsonSchema = this.adapter.jsonSchema;
  }

  /** The function declaration sent to the model. */
  get schema(): SdkToolDeclaration {
    return {
      name: this.name,
      description: this.description,
      parametersJsonSchema: this.parametersJsonSchema,
    };
  }

  /** The JSON Schema of the parameters (the reference's `parameterSchema`). */
  get parameterSchema(): Record<string, unknown> {
    return this.parametersJsonSchema;
  }

  /**
   * Checks the model's arguments: first against the declared JSON Schema (gemini-cli's message, e.g. `params must
   * have required property 'b'`), then with the schema's own validator, whose output (defaults, transforms) the
   * action receives.
   */
  validate(args: Record<string, unknown>): ToolValidation | Promise<ToolValidation> {
    if (this.argumentsCheck === null) {
      this.argumentsCheck = compileArgumentsCheck(this.adapter.jsonSchema, this.adapter.dialect);
    }
    const jsonError = this.argumentsCheck?.(args) ?? null;
    if (jsonError !== null) return { ok: false, error: jsonError };
    const parse = this.adapter.parse;
    if (parse === undefined) return { ok: true, args };
    const outcome = parse(args);
    return outcome instanceof Promise ? outcome.then((o) => this.finish(o)) : this.finish(outcome);
  }

  /**
   * The reference's `validateToolParams`: the error message, or null when the parameters are valid.
   *
   * @throws Error for a schema that validates asynchronously (use {@link SdkTool.validate}).
   */
  validateToolParams(params: unknown): string | null {
    const result = this.validateNow(params);
    return result.ok ? null : result.error;
  }

  /** One line for approvals and logs: `Executing <name>...`. */
  describe(): string {
    return `Executing ${this.name}...`;
  }

  /** Runs a validated call in the loop. */
  execute(
    args: Record<string, unknown>,
    ctx: SessionContext,
    _call?: ToolCallInfo,
  ): Promise<ToolResult> {
    return this.run(args as InferToolInput<S>, ctx);
  }

  /** A copy whose direct invocations receive `context`. */
  bindContext(context: SessionContext): SdkTool<S> {
    return new SdkTool(this.definition, undefined, undefined, context);
  }

  /**
   * Validates `params` and returns an invocation for them (the reference's `build`).
   *
   * @throws Error with the validation message when they are invalid, or for a schema that validates
   *   asynchronously.
   */
  build(params: unknown): SdkToolInvocation<S> {
    const result = this.validateNow(params);
    if (!result.ok) throw new Error(result.error);
    return new SdkToolInvocation(result.args as InferToolInput<S>, this, this.context, this.name);
  }

  /** An invocation with these (already valid) parameters and this context (or the bound one). */
  createInvocationWithContext(
    params: InferToolInput<S>,
    _messageBus?: unknown,
    context?: SessionContext,
    toolName?: string,
  ): SdkToolInvocation<S> {
    return new SdkToolInvocation(params, this, context ?? this.context, toolName ?? this.name);
  }

  /** @internal Runs the action with the error rules. */
  async run(params: InferToolInput<S>, context: SessionContext | undefined): Promise<ToolResult> {
    try {
      const output = renderToolOutput(
        await this.definition.action(params, context as SessionContext),
      );
      return { llmContent: output, returnDisplay: output };
    } catch (error) {
      if (this.definition.sendErrorsToModel === true || error instanceof ModelVisibleError) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          llmContent: `Error: ${message}`,
          returnDisplay: `Error: ${message}`,
          error: { message },
        };
      }
      throw error;
    }
  }

  private validateNow(params: unknown): ToolValidation {
    const result = this.validate(params as Record<string, unknown>);
    if (result instanceof Promise) {
      void result.catch(() => undefined);
      throw new Error(
        `Tool "${this.name}" validates asynchronously; await sdkTool.validate(params) instead.`,
      );
    }
    return result;
  }

  private finish(outcome: ParseOutcome): ToolValidation {
    if (!outcome.ok) {
      const issues = outcome.issues.map((i) => `${i.path}: ${i.message}`).join('; ');
      return { ok: false, error: `Invalid arguments for tool "${this.name}": ${issues}` };
    }
    const value = outcome.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, error: `Invalid arguments for tool "${this.name}": expected an object.` };
    }
    return { ok: true, args: value as Record<string, unknown> };
  }
}

/** Adapts a `tool()` definition to the loop's {@link AgentTool} (an {@link SdkTool}), once per tool object. */
export function sdkToolToAgentTool(definition: Tool): AgentTool {
  let adapted = cache.get(definition);
  if (adapted === undefined) {
    adapted = new SdkTool(definition);
    cache.set(definition, adapted);
  }
  return adapted;
}

/** True when `value` is an {@link AgentTool} (has `execute`) rather than a `tool()` definition. */
export function isAgentTool(value: Tool | AgentTool): value is AgentTool {
  return typeof (value as Partial<AgentTool>).execute === 'function';
}
