import type { HookDefinitionSettings, Settings } from '../settings/settings-schema.js';
import type { CommandHookConfig } from './command-hook.js';
import type { HookEntry } from './hook-planner.js';
import { isHookEventName, type HookSource } from './hook-types.js';

/** Keys gemini-cli skips inside `hooks` (they belong in `hooksConfig`; older files put them there). */
const HOOKS_CONFIG_FIELDS = new Set(['enabled', 'disabled', 'notifications']);

/** Settings hooks as entries, and what was skipped (one line each, for warnings). */
export interface SettingsHooks {
  entries: HookEntry[];
  warnings: string[];
}

/** gemini-cli's identity key of a hook: `<name>:<command>`. */
export function hookKey(name: string | undefined, command: string | undefined): string {
  return `${name ?? ''}:${command ?? ''}`;
}

function commandConfig(raw: Record<string, unknown>): CommandHookConfig | string {
  const type = raw['type'];
  if (type !== 'command') {
    return type === 'runtime' || type === 'plugin'
      ? `type "${String(type)}" cannot be configured in a settings file (only "command")`
      : `type must be "command" (got ${JSON.stringify(type) ?? 'nothing'})`;
  }
  const command = raw['command'];
  if (typeof command !== 'string' || command.trim() === '') return 'it has no "command"';
  const config: CommandHookConfig = { type: 'command', command };
  if (typeof raw['name'] === 'string' && raw['name'] !== '') config.name = raw['name'];
  if (typeof raw['description'] === 'string') config.description = raw['description'];
  const timeout = raw['timeout'];
  if (typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)
    config.timeout = timeout;
  const env = raw['env'];
  if (typeof env === 'object' && env !== null && !Array.isArray(env)) {
    config.env = Object.fromEntries(
      Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  }
  return config;
}

/**
 * Reads a `hooks` object (settings.json's, or an extension's `hooks/hooks.json`) the way gemini-cli's registry
 * does: `hooks.<Event>` lists of `{ matcher?, sequential?, hooks: [{ type: "command", command, name?, timeout?,
 * env? }] }`; the `hooksConfig` keys found inside are skipped, an unknown event name is skipped with gemini-cli's
 * warning, an invalid definition or hook is dropped. A hook whose name (or command, without a name) is in
 * `disabled` is registered disabled.
 */
export function parseHooksObject(
  hooks: Record<string, unknown> | undefined,
  options: { source: HookSource; disabled: readonly string[]; label: string },
): SettingsHooks {
  const entries: HookEntry[] = [];
  const warnings: string[] = [];
  const disabled = new Set(options.disabled);
  for (const [event, definitions] of Object.entries(hooks ?? {})) {
    if (HOOKS_CONFIG_FIELDS.has(event)) continue;
    if (!isHookEventName(event)) {
      warnings.push(`Invalid hook event name: "${event}" from ${options.label} config. Skipping.`);
      continue;
    }
    if (!Array.isArray(definitions)) {
      warnings.push(`Hook definitions for event "${event}" are not a list; they are skipped.`);
      continue;
    }
    for (const [index, definition] of (definitions as unknown[]).entries()) {
      const def = definition as HookDefinitionSettings | null;
      if (typeof def !== 'object' || def === null || !Array.isArray(def.hooks)) {
        warnings.push(`hooks.${event}[${index}] has no "hooks" list; it is skipped.`);
        continue;
      }
      for (const [inner, raw] of (def.hooks as unknown[]).entries()) {
        const config =
          typeof raw === 'object' && raw !== null && !Array.isArray(raw)
            ? commandConfig(raw as Record<string, unknown>)
            : 'it is not an object';
        if (typeof config === 'string') {
          warnings.push(`hooks.${event}[${index}].hooks[${inner}] is skipped: ${config}.`);
          continue;
        }
        const name = config.name ?? config.command;
        entries.push({
          event,
          source: options.source,
          name,
          key: hookKey(config.name, config.command),
          matcher: typeof def.matcher === 'string' ? def.matcher : undefined,
          sequential: def.sequential === true,
          enabled: !disabled.has(name),
          implementation: { type: 'command', config },
        });
      }
    }
  }
  return { entries, warnings };
}

/**
 * The command hooks of merged settings (`hooks`, with `hooksConfig.disabled`), registered as gemini-cli registers
 * settings hooks (source `project`, in the files' merge order). Nothing when `hooksConfig.enabled` is false.
 */
export function settingsHookEntries(settings: Settings): SettingsHooks {
  if (settings.hooksConfig?.enabled === false) return { entries: [], warnings: [] };
  return parseHooksObject(settings.hooks as Record<string, unknown> | undefined, {
    source: 'project',
    disabled: settings.hooksConfig?.disabled ?? [],
    label: 'project',
  });
}
