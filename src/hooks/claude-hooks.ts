import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigurationError } from '../errors.js';
import { parseJsonc } from '../settings/jsonc.js';
import { workspaceSettingsPath } from '../settings/settings-paths.js';

/** Claude Code's hook events, as gemini-cli's `hooks migrate --from-claude` maps them. */
export const CLAUDE_EVENT_NAMES: Readonly<Record<string, string>> = {
  PreToolUse: 'BeforeTool',
  PostToolUse: 'AfterTool',
  UserPromptSubmit: 'BeforeAgent',
  Stop: 'AfterAgent',
  SubAgentStop: 'AfterAgent',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  PreCompact: 'PreCompress',
  Notification: 'Notification',
};

/** Claude Code's tool names in matchers, and gemini-cli's. */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  Edit: 'replace',
  Bash: 'run_shell_command',
  Read: 'read_file',
  Write: 'write_file',
  Glob: 'glob',
  Grep: 'grep',
  LS: 'ls',
};

type Definition = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function convertMatcher(matcher: string): string {
  let out = matcher;
  for (const [claude, gemini] of Object.entries(CLAUDE_TOOL_NAMES))
    out = out.replace(new RegExp(`\\b${claude}\\b`, 'g'), gemini);
  return out;
}

function convertHook(raw: unknown): Definition | undefined {
  if (!isObject(raw) || raw['type'] !== 'command' || typeof raw['command'] !== 'string')
    return undefined;
  const hook: Definition = {
    type: 'command',
    command: raw['command'].replace(/\$CLAUDE_PROJECT_DIR/g, '$GEMINI_PROJECT_DIR'),
  };
  // Claude Code's timeout is in seconds, gemini-cli's in milliseconds.
  const timeout = raw['timeout'];
  if (typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0)
    hook['timeout'] = Math.round(timeout * 1000);
  return hook;
}

/**
 * Converts the `hooks` of a Claude Code settings object to gemini-cli's `hooks`: event names mapped
 * (`PreToolUse` → `BeforeTool`, …; others kept), tool names in matchers (`Bash` → `run_shell_command`, …),
 * `$CLAUDE_PROJECT_DIR` → `$GEMINI_PROJECT_DIR`, timeouts from seconds to milliseconds. Entries that are not
 * command hooks are left out.
 */
export function convertClaudeHooks(claudeSettings: unknown): Record<string, Definition[]> {
  const hooks = isObject(claudeSettings) ? claudeSettings['hooks'] : undefined;
  const out = new Map<string, Definition[]>();
  if (!isObject(hooks)) return {};
  for (const [event, definitions] of Object.entries(hooks)) {
    if (!Array.isArray(definitions)) continue;
    const name = Object.hasOwn(CLAUDE_EVENT_NAMES, event)
      ? (CLAUDE_EVENT_NAMES[event] as string)
      : event;
    for (const definition of definitions as unknown[]) {
      if (!isObject(definition) || !Array.isArray(definition['hooks'])) continue;
      const converted = (definition['hooks'] as unknown[]).flatMap((h) => convertHook(h) ?? []);
      if (converted.length === 0) continue;
      const def: Definition = { hooks: converted };
      if (typeof definition['matcher'] === 'string' && definition['matcher'] !== '')
        def['matcher'] = convertMatcher(definition['matcher']);
      if (typeof definition['sequential'] === 'boolean')
        def['sequential'] = definition['sequential'];
      out.set(name, [...(out.get(name) ?? []), def]);
    }
  }
  // Not an object literal: an event called `__proto__` stays a plain key.
  const result: Record<string, Definition[]> = {};
  for (const [name, defs] of out)
    Object.defineProperty(result, name, {
      value: defs,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return result;
}

/** What {@link migrateClaudeHooks} did. */
export interface ClaudeMigration {
  /** The Claude Code settings file read. */
  source: string;
  /** The workspace settings file written (unchanged when nothing was added). */
  target: string;
  /** Hooks added, by gemini-cli event name. */
  added: Record<string, number>;
  /** Hooks already in the target (same command), not added again. */
  skipped: number;
  /** A copy of the target as it was, when it had comments (the rewritten file has none). */
  backup?: string;
}

function readJsonc(file: string): { value: unknown; hadComments: boolean } {
  const text = readFileSync(file, 'utf8');
  const value = parseJsonc(text, file).value;
  let hadComments = false;
  try {
    JSON.parse(text);
  } catch {
    hadComments = true;
  }
  return { value, hadComments };
}

function commandsOf(definitions: unknown): Set<string> {
  const commands = new Set<string>();
  if (!Array.isArray(definitions)) return commands;
  for (const def of definitions as unknown[]) {
    if (!isObject(def) || !Array.isArray(def['hooks'])) continue;
    for (const hook of def['hooks'] as unknown[])
      if (isObject(hook) && typeof hook['command'] === 'string') commands.add(hook['command']);
  }
  return commands;
}

/**
 * gemini-cli's `hooks migrate --from-claude`: reads `.claude/settings.local.json` (else `.claude/settings.json`)
 * in `cwd`, converts its hooks ({@link convertClaudeHooks}) and adds them to the workspace's
 * `.gemini/settings.json`, keeping its other keys and hooks (a hook with the same command is not added twice;
 * gemini-cli replaces each migrated event's list, and writes the hooks of every settings file into the workspace
 * file — we add only the migrated ones). The file is replaced atomically.
 *
 * @throws ConfigurationError when there is no Claude Code settings file; SettingsFileError for a malformed one.
 */
export function migrateClaudeHooks(cwd: string): ClaudeMigration {
  const candidates = ['settings.local.json', 'settings.json'].map((f) => join(cwd, '.claude', f));
  const source = candidates.find((file) => existsSync(file));
  if (source === undefined) {
    throw new ConfigurationError(
      `No Claude Code settings found: expected ${candidates.join(' or ')}. Run this in the project folder.`,
    );
  }
  const migrated = convertClaudeHooks(readJsonc(source).value);
  const target = workspaceSettingsPath(cwd);
  const existing = existsSync(target) ? readJsonc(target) : { value: {}, hadComments: false };
  if (!isObject(existing.value)) {
    throw new ConfigurationError(`${target} does not hold a JSON object; fix it before migrating.`);
  }
  const settings = { ...existing.value };
  const hooks: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (isObject(settings['hooks'])) Object.assign(hooks, settings['hooks']);
  const added: Record<string, number> = {};
  let skipped = 0;
  for (const [event, definitions] of Object.entries(migrated)) {
    const present = commandsOf(hooks[event]);
    const fresh = definitions.flatMap((def) => {
      const list = (def['hooks'] as Definition[]).filter(
        (h) => !present.has(h['command'] as string),
      );
      skipped += (def['hooks'] as Definition[]).length - list.length;
      return list.length === 0 ? [] : [{ ...def, hooks: list }];
    });
    if (fresh.length === 0) continue;
    hooks[event] = [...(Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []), ...fresh];
    added[event] = fresh.reduce((n, def) => n + def.hooks.length, 0);
  }
  const result: ClaudeMigration = { source, target, added, skipped };
  if (Object.keys(added).length === 0) return result;
  settings['hooks'] = { ...hooks };
  mkdirSync(dirname(target), { recursive: true });
  if (existing.hadComments) {
    result.backup = `${target}.bak`;
    copyFileSync(target, result.backup);
  }
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(temp, target);
  return result;
}
