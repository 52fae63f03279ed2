import type { FunctionDeclaration } from '@google/genai';
import { ConfigurationError } from '../errors.js';
import type { AgentTool } from '../core/agent-tool.js';

/** The tools available for one model call, by name, plus their declarations for the request. */
export class ToolRegistry {
  private readonly byName = new Map<string, AgentTool>();

  /** @throws ConfigurationError when two tools share a name. */
  constructor(tools: readonly AgentTool[]) {
    for (const t of tools) {
      if (this.byName.has(t.name)) {
        throw new ConfigurationError(
          `Two tools are named "${t.name}". Tool names must be unique: rename one of them.`,
        );
      }
      this.byName.set(t.name, t);
    }
  }

  /** The tool with this name, if registered. */
  get(name: string): AgentTool | undefined {
    return this.byName.get(name);
  }

  /** All tool names, in registration order. */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  /** `functionDeclarations` for the request: name, description and `parametersJsonSchema`. */
  declarations(): FunctionDeclaration[] {
    return [...this.byName.values()].map((t) => ({
      name: t.name,
      description: t.description,
      parametersJsonSchema: t.parametersJsonSchema,
    }));
  }
}
