import type { HookEntry } from './hook-planner.js';
import type { HookEventName, HookSource } from './hook-types.js';

/** One registered hook, as `agent.hooks()` lists it (gemini-cli's `/hooks panel`). */
export interface HookInfo {
  event: HookEventName;
  /** The hook's name, else its command. */
  name: string;
  /** `runtime` for the `hooks` option; `project` for every settings file's hooks (gemini-cli's registration). */
  source: HookSource;
  type: 'command' | 'runtime';
  matcher: string | undefined;
  sequential: boolean;
  /** False when `hooksConfig.disabled` lists it: it is registered but never runs. */
  enabled: boolean;
  /** Milliseconds. */
  timeout: number | undefined;
  description: string | undefined;
  /** The shell command (command hooks). */
  command: string | undefined;
}

/** What `agent.hooks()` returns: every registered hook in run order, and the problems found in the settings. */
export interface HookListing {
  hooks: HookInfo[];
  /** Settings hooks that were skipped, with why (unknown events, definitions without `hooks`, …). */
  warnings: string[];
}

/** The listing of registered hook entries. */
export function hookListing(
  entries: readonly HookEntry[],
  warnings: readonly string[],
): HookListing {
  return {
    hooks: entries.map((entry) => {
      const impl = entry.implementation;
      return {
        event: entry.event,
        name: entry.name,
        source: entry.source,
        type: impl.type,
        matcher: entry.matcher,
        sequential: entry.sequential,
        enabled: entry.enabled,
        timeout: impl.type === 'runtime' ? impl.timeoutMs : impl.config.timeout,
        description: impl.type === 'command' ? impl.config.description : entry.description,
        command: impl.type === 'command' ? impl.config.command : undefined,
      };
    }),
    warnings: [...warnings],
  };
}
