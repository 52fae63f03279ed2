import { z } from 'zod';
import type { ResolvedSubagent } from './subagent-types.js';

/** gemini-cli's `agents.overrides.<name>` settings entry. */
export const AgentOverride = z.looseObject({
  enabled: z.boolean().optional(),
  modelConfig: z
    .looseObject({
      model: z.string().min(1).optional(),
      generateContentConfig: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
  runConfig: z
    .looseObject({
      maxTurns: z.number().int().positive().optional(),
      maxTimeMinutes: z.number().positive().optional(),
    })
    .optional(),
  tools: z.array(z.string()).optional(),
  mcpServers: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});
/** One `agents.overrides.<name>` entry. */
export type AgentOverride = z.infer<typeof AgentOverride>;

/** The overrides of the settings, by agent name, and a warning for each entry that does not validate. */
export function readAgentOverrides(value: unknown): {
  overrides: Map<string, AgentOverride>;
  warnings: string[];
} {
  const overrides = new Map<string, AgentOverride>();
  const warnings: string[] = [];
  if (value === undefined || value === null) return { overrides, warnings };
  if (typeof value !== 'object' || Array.isArray(value)) {
    warnings.push(
      'Settings agents.overrides must be an object keyed by agent name; it is ignored.',
    );
    return { overrides, warnings };
  }
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    const parsed = AgentOverride.safeParse(entry);
    if (parsed.success) overrides.set(name, parsed.data);
    else {
      const why = parsed.error.issues
        .map((i) => `${i.path.join('.') || name}: ${i.message}`)
        .join('; ');
      warnings.push(`Settings agents.overrides.${name} is ignored: ${why}.`);
    }
  }
  return { overrides, warnings };
}

/**
 * A definition with its settings override applied as gemini-cli's `applyOverrides`: `runConfig` shallow-merged,
 * `modelConfig` merged, `tools` replacing the list, `mcpServers` merged (the override's win).
 */
export function applyAgentOverride(
  definition: ResolvedSubagent,
  override: AgentOverride | undefined,
): ResolvedSubagent {
  if (override === undefined) return definition;
  const run = override.runConfig;
  const model = override.modelConfig;
  return {
    ...definition,
    ...(run?.maxTurns === undefined ? {} : { maxTurns: run.maxTurns }),
    ...(run?.maxTimeMinutes === undefined ? {} : { timeoutMs: run.maxTimeMinutes * 60_000 }),
    ...(model?.model === undefined ? {} : { model: model.model }),
    ...(model?.generateContentConfig === undefined
      ? {}
      : { generationConfig: { ...definition.generationConfig, ...model.generateContentConfig } }),
    ...(override.tools === undefined ? {} : { tools: [...override.tools] }),
    ...(override.mcpServers === undefined
      ? {}
      : { mcpServers: { ...definition.mcpServers, ...override.mcpServers } }),
  };
}
