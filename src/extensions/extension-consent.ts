import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SkillDefinition } from '../skills/skill-definition.js';
import type { ExtensionManifest } from './extension-manifest.js';

/** gemini-cli's warning shown with every install (and printed when `--consent` skips the question). */
export const INSTALL_WARNING =
  'The extension you are about to install may have been created by a third-party developer and sourced from a public repository. Google does not vet, endorse, or guarantee the functionality or security of extensions. Please carefully inspect any extension and its source code before installing to understand the permissions it requires and the actions it may perform.';

/** gemini-cli's warning shown when the extension brings skills. */
export const SKILLS_WARNING =
  "Agent skills inject specialized instructions and domain-specific knowledge into the agent's system prompt. This can change how the agent interprets your requests and interacts with your environment. Review the skill definitions at the location(s) provided below to ensure they meet your security standards.";

/** C0 controls but tab and newline, DEL and C1 controls (ESC starts every ANSI sequence). */
function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

/** Control characters (ANSI escapes included) removed from every string, so a manifest cannot drive the terminal. */
function sanitize<T>(value: T): T {
  if (typeof value === 'string') {
    return Array.from(value)
      .filter((c) => !isControl(c.codePointAt(0) ?? 0))
      .join('') as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => sanitize(v)) as T;
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = sanitize(v);
    return out as T;
  }
  return value;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** gemini-cli's "Config signature" of an MCP server: sha256 of its JSON with object keys sorted. */
export function mcpServerSignature(server: Record<string, unknown>): string {
  const copy: Record<string, unknown> = { ...server };
  delete copy['extension'];
  const canonical = JSON.stringify(copy, (_key, value: unknown) => {
    if (value instanceof RegExp) return value.toString();
    if (isRecord(value)) {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, value[k]]),
      );
    }
    return value;
  });
  return createHash('sha256').update(canonical).digest('hex');
}

const SECRET_ENV = /token|secret|password|passwd|key|auth|credential|creds|private|cert/i;
const SECRET_HEADER = /authorization|key|cookie|token|secret/i;

function sortedEntries(value: unknown): Array<[string, unknown]> {
  return isRecord(value) ? Object.entries(value).sort(([a], [b]) => a.localeCompare(b)) : [];
}

function serverLines(key: string, server: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const args = Array.isArray(server['args']) ? ` ${(server['args'] as unknown[]).join(' ')}` : '';
  const source =
    typeof server['httpUrl'] === 'string'
      ? server['httpUrl']
      : `${typeof server['command'] === 'string' ? server['command'] : ''}${args}`;
  lines.push(`  * ${key} (${server['command'] ? 'local' : 'remote'}): ${source}`);
  if (server['cwd']) lines.push(`    Working directory: ${String(server['cwd'])}`);
  const env = sortedEntries(server['env']);
  if (env.length > 0) {
    lines.push('    Environment variables:');
    for (const [k, v] of env)
      lines.push(`      - ${k}: ${SECRET_ENV.test(k) && v ? '********' : String(v ?? '')}`);
  }
  const headers = sortedEntries(server['headers']);
  if (headers.length > 0) {
    lines.push('    Headers:');
    for (const [k, v] of headers)
      lines.push(`      - ${k}: ${SECRET_HEADER.test(k) && v ? '********' : String(v ?? '')}`);
  }
  const simple: Array<[string, string]> = [
    ['url', 'URL'],
    ['tcp', 'TCP'],
    ['type', 'Type'],
  ];
  for (const [field, label] of simple)
    if (server[field]) lines.push(`    ${label}: ${String(server[field])}`);
  if (server['timeout'] !== undefined) lines.push(`    Timeout: ${String(server['timeout'])}`);
  if (server['trust'] !== undefined) lines.push(`    Trust: ${String(server['trust'])}`);
  if (server['description']) lines.push(`    Description: ${String(server['description'])}`);
  for (const [field, label] of [
    ['includeTools', 'Include tools'],
    ['excludeTools', 'Exclude tools'],
  ] as const) {
    const list = server[field];
    if (Array.isArray(list) && list.length > 0) lines.push(`    ${label}: ${list.join(', ')}`);
  }
  lines.push(`    Config signature: ${mcpServerSignature(server)}`);
  return lines;
}

async function skillLines(skills: readonly SkillDefinition[]): Promise<string[]> {
  const lines: string[] = [];
  for (const skill of skills) {
    lines.push(`  * ${skill.name}: ${skill.description}`);
    let count: string;
    try {
      count = ` (${(await readdir(dirname(skill.location))).length} items in directory)`;
    } catch {
      count = ' ⚠️ (Could not count items in directory)';
    }
    lines.push(`    (Source: ${skill.location})${count}`);
    lines.push('');
  }
  return lines;
}

/** How an update differs from a plain install, for the first line of the consent text. */
export interface ConsentChange {
  /** The installed extension's name (an update); a different name is a rename. */
  previousName?: string | undefined;
  /** The update comes from another source (the manifest's `migratedTo`). */
  migrated?: boolean | undefined;
}

function firstLine(name: string, change: ConsentChange): string {
  const previous = change.previousName === undefined ? undefined : sanitize(change.previousName);
  const renamed = previous !== undefined && previous !== name;
  if (change.migrated) {
    return renamed
      ? `Migrating extension "${previous}" to a new repository, renaming to "${name}", and installing updates.`
      : `Migrating extension "${name}" to a new repository and installing updates.`;
  }
  if (renamed) return `Renaming extension "${previous}" to "${name}" and installing updates.`;
  return `Installing extension "${name}".`;
}

/**
 * gemini-cli 0.61's consent text for installing an extension: what it will run (MCP servers with their signature),
 * the context file, the excluded tools, a hooks warning, its skills, and the generic warnings. Control characters
 * of the manifest are removed. `change` names a rename or a migration (updates).
 */
export async function extensionConsentText(
  manifest: ExtensionManifest,
  hasHooks: boolean,
  skills: readonly SkillDefinition[],
  change: ConsentChange = {},
): Promise<string> {
  const config = sanitize(manifest);
  const out: string[] = [firstLine(config.name, change)];
  const servers = Object.entries(isRecord(config.mcpServers) ? config.mcpServers : {});
  if (servers.length > 0) {
    out.push('This extension will run the following MCP servers:');
    for (const [key, server] of servers)
      if (isRecord(server)) out.push(...serverLines(key, server));
  }
  if (config.contextFileName) {
    out.push(
      `This extension will append info to your gemini.md context using ${String(config.contextFileName)}`,
    );
  }
  if (config.excludeTools) {
    out.push(
      `This extension will exclude the following core tools: ${String(config.excludeTools)}`,
    );
  }
  if (hasHooks)
    out.push('⚠️  This extension contains Hooks which can automatically execute commands.');
  const safeSkills = sanitize(skills.map((s) => ({ ...s })));
  if (safeSkills.length > 0) {
    out.push('\nAgent Skills:');
    out.push('\nThis extension will install the following agent skills:\n');
    out.push(...(await skillLines(safeSkills)));
  }
  out.push(`\n${INSTALL_WARNING}`);
  if (safeSkills.length > 0) out.push(`\n${SKILLS_WARNING}`);
  return out.join('\n');
}
