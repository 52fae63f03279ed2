// gemini's `extensions list` text for one extension (ExtensionManager.toOutputString in gemini-cli 0.61).
import { createHash } from 'node:crypto';
import type { ExtensionInfo } from './sdk.js';

/**
 * gemini-cli's `extensions list` entry: the id, ` name: ` with the sha256 of the name, … and each setting as
 * `<name>: <value> <(scope - source)>` — `[not set]` for no or an empty value, `***` for a sensitive one, and a
 * trailing space when there is no scope, as gemini prints it.
 */
export function extensionListEntry(ext: ExtensionInfo): string {
  const lines = [
    `${ext.enabledWorkspace ? '✓' : '✗'} ${ext.name} (${ext.version})`,
    ` ID: ${ext.id}`,
    ` name: ${createHash('sha256').update(ext.name).digest('hex')}`,
  ];
  lines.push(` Path: ${ext.path}`);
  const meta = ext.installMetadata;
  if (meta) {
    lines.push(` Source: ${meta.source} (Type: ${meta.type})`);
    if (meta.ref) lines.push(` Ref: ${meta.ref}`);
    if (meta.releaseTag) lines.push(` Release tag: ${meta.releaseTag}`);
  }
  lines.push(
    ` Enabled (User): ${ext.enabledUser}`,
    ` Enabled (Workspace): ${ext.enabledWorkspace}`,
  );
  const section = (title: string, items: string[]) => {
    if (items.length > 0) lines.push(` ${title}:`, ...items.map((i) => `  ${i}`));
  };
  section('Context files', ext.contextFiles);
  section('MCP servers', ext.mcpServers);
  section('Excluded tools', ext.excludeTools);
  section(
    'Agent skills',
    ext.skills.map((s) => `${s.name}: ${s.description}`),
  );
  section('Agents', ext.agents);
  section(
    'Settings',
    ext.settings.map((s) => {
      const value = !s.value ? '[not set]' : s.sensitive ? '***' : s.value;
      const scope = s.scope
        ? `(${s.scope === 'workspace' ? 'Workspace' : 'User'}${s.source ? ` - ${s.source}` : ''})`
        : '';
      return `${s.name}: ${value} ${scope}`;
    }),
  );
  return lines.join('\n');
}
