import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from '../logger.js';
import { hookKey } from './settings-hooks.js';

/** `~/.gemini/trusted_hooks.json`: project root → the `name:command` keys of its hooks already seen. */
export function trustedHooksPath(home: string): string {
  return join(home, '.gemini', 'trusted_hooks.json');
}

interface WorkspaceHook {
  key: string;
  /** The name, else the command: how the warning lists it. */
  label: string;
}

function workspaceHooks(hooks: Record<string, unknown> | undefined): WorkspaceHook[] {
  const found: WorkspaceHook[] = [];
  for (const definitions of Object.values(hooks ?? {})) {
    if (!Array.isArray(definitions)) continue;
    for (const def of definitions as unknown[]) {
      const list = (def as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(list)) continue;
      for (const hook of list as unknown[]) {
        if (typeof hook !== 'object' || hook === null) continue;
        const { type, name, command } = hook as Record<string, unknown>;
        if (type === 'runtime') continue;
        const n = typeof name === 'string' ? name : undefined;
        const c = typeof command === 'string' ? command : undefined;
        found.push({ key: hookKey(n, c), label: n || c || 'unknown-hook' });
      }
    }
  }
  return found;
}

function readTrusted(file: string, logger: Logger): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      logger.warn('Failed to load trusted hooks config', { file, error: String(error) });
    return {};
  }
}

/**
 * gemini-cli's first-seen check of a trusted workspace's own hooks (`<ws>/.gemini/settings.json`): keys not yet in
 * `trusted_hooks.json` for this project give its warning text, once, and are then recorded as trusted (the file is
 * written atomically). Returns the warning, or undefined when every hook was seen before. Never throws.
 */
export function checkWorkspaceHooksTrust(
  projectRoot: string,
  hooks: Record<string, unknown> | undefined,
  home: string,
  logger: Logger,
): string | undefined {
  const found = workspaceHooks(hooks);
  if (found.length === 0) return undefined;
  const file = trustedHooksPath(home);
  const trusted = readTrusted(file, logger);
  const known = trusted[projectRoot];
  const seen = new Set(Array.isArray(known) ? known.filter((k) => typeof k === 'string') : []);
  const untrusted = [...new Set(found.filter((h) => !seen.has(h.key)).map((h) => h.label))];
  if (untrusted.length === 0) return undefined;
  for (const h of found) seen.add(h.key);
  trusted[projectRoot] = [...seen];
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(trusted, null, 2));
    renameSync(tmp, file);
  } catch (error) {
    logger.warn('Failed to save trusted hooks config', { file, error: String(error) });
  }
  return (
    'WARNING: The following project-level hooks have been detected in this workspace:\n' +
    `${untrusted.map((h) => `  - ${h}`).join('\n')}\n\n` +
    'These hooks will be executed. If you did not configure these hooks or do not trust this project,\n' +
    'please review the project settings (.gemini/settings.json) and remove them.'
  );
}
