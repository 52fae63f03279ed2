import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLogger, type Logger } from '../logger.js';
import type { SkillDefinition, SkillSource } from './skill-definition.js';
import { loadSkillsFromDir } from './skill-loader.js';
import type { SkillReference } from './skill-reference.js';
import { resolveFolderTrust } from '../settings/folder-trust.js';

/** Skills an extension contributes (tier 2). Extensions themselves are loaded elsewhere. */
export interface ExtensionSkills {
  /** The extension's name, recorded on its skills. */
  name: string;
  /** Its skill directories, e.g. `[skillDir('<extension>/skills')]`. */
  skills: readonly SkillReference[];
  /**
   * Applied to each loaded skill's name, description, body and location (an extension folder substitutes
   * `${extensionPath}`, its settings values, … as gemini-cli hydrates extension skills).
   */
  hydrate?: (text: string) => string;
}

/** Which file-system tiers {@link discoverSkills} scans besides the explicit references. */
export interface SkillDiscoveryTiers {
  /** `~/.gemini/skills` and `~/.agents/skills`. Default true. */
  user?: boolean;
  /** `<cwd>/.gemini/skills` and `<cwd>/.agents/skills`, only in a trusted folder. Default true. */
  workspace?: boolean;
}

/** Options of {@link discoverSkills}. */
export interface SkillDiscoveryOptions {
  /** The workspace folder; relative references resolve against it. */
  cwd: string;
  /** The `skills` option: highest precedence. */
  references?: readonly SkillReference[];
  /** Skills shipped with the embedding application: lowest precedence, pre-approved (no consent). */
  builtin?: readonly SkillReference[];
  /** Skills of active extensions (tier 2). */
  extensions?: readonly ExtensionSkills[];
  /**
   * Scan the user and workspace tiers as gemini-cli does (default `true`); `false` loads only `builtin`,
   * `extensions` and `references`; an object picks tiers.
   */
  discovery?: boolean | SkillDiscoveryTiers;
  /**
   * Whether `cwd` is trusted (workspace skills load only then). Default: gemini-cli's trust rules
   * (`GEMINI_CLI_TRUST_WORKSPACE`, `trustedFolders.json`); with no matching rule, untrusted.
   */
  trusted?: boolean;
  /** Home directory holding `.gemini/` and `.agents/`. Default `GEMINI_CLI_HOME`, else the OS home. */
  home?: string;
  /** Environment for `GEMINI_CLI_HOME` and `GEMINI_CLI_TRUSTED_FOLDERS_PATH`. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Receives skipped-skill and conflict warnings. Default silent. */
  logger?: Logger;
  signal?: AbortSignal;
}

/** The home directory skills discovery uses: `GEMINI_CLI_HOME`, else `os.homedir()`, else the temp dir. */
export function resolveSkillsHome(
  home: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if (home !== undefined && home !== '') return resolve(home);
  const fromEnv = env['GEMINI_CLI_HOME'];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  return homedir() || tmpdir();
}

interface Tier {
  source: SkillSource;
  dir: string;
  /** Report a missing directory (explicit references) instead of ignoring it (conventional tier folders). */
  explicit: boolean;
  followSymlinks: boolean;
  isBuiltin?: boolean;
  extensionName?: string;
  hydrate?: (text: string) => string;
}

/**
 * Loads every skill tier, lowest precedence first: built-in, extensions, `~/.gemini/skills`,
 * `~/.agents/skills`, `<cwd>/.gemini/skills`, `<cwd>/.agents/skills` (trusted folders only), then the
 * `skills` option. A later skill replaces an earlier one with the same (case-sensitive) name; the override is
 * logged as gemini-cli words it. Never rejects for a bad skill or a missing folder (only on abort).
 */
export async function discoverSkills(options: SkillDiscoveryOptions): Promise<SkillDefinition[]> {
  const logger = options.logger ?? silentLogger;
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd);
  const tiers: Tier[] = [];
  const explicit = (source: SkillSource, refs: readonly SkillReference[] = [], extra = {}) => {
    for (const ref of refs) {
      tiers.push({
        source,
        dir: resolve(cwd, ref.path),
        explicit: true,
        followSymlinks: false,
        ...extra,
      });
    }
  };
  explicit('builtin', options.builtin, { isBuiltin: true });
  for (const extension of options.extensions ?? []) {
    explicit('extension', extension.skills, {
      extensionName: extension.name,
      ...(extension.hydrate ? { hydrate: extension.hydrate } : {}),
    });
  }

  const discovery = options.discovery ?? true;
  const userTier = discovery === true || (discovery !== false && discovery.user !== false);
  const workspaceTier =
    discovery === true || (discovery !== false && discovery.workspace !== false);
  const home = resolveSkillsHome(options.home, env);
  if (userTier) {
    for (const dir of [join(home, '.gemini', 'skills'), join(home, '.agents', 'skills')]) {
      // `gemini skills link` puts symlinks here, so the user's own tier follows them.
      tiers.push({ source: 'user', dir, explicit: false, followSymlinks: true });
    }
  }
  if (workspaceTier) {
    const trusted = options.trusted ?? resolveFolderTrust({ folder: cwd, home, env }).trusted;
    if (trusted) {
      for (const dir of [join(cwd, '.gemini', 'skills'), join(cwd, '.agents', 'skills')]) {
        tiers.push({ source: 'workspace', dir, explicit: false, followSymlinks: false });
      }
    } else {
      logger.debug('Workspace skills disabled because folder is not trusted.', { cwd });
    }
  }
  explicit('option', options.references);

  const byName = new Map<string, SkillDefinition>();
  for (const tier of tiers) {
    const skills = await loadSkillsFromDir(tier.dir, {
      logger,
      source: tier.source,
      followSymlinks: tier.followSymlinks,
      ...(tier.isBuiltin === undefined ? {} : { isBuiltin: tier.isBuiltin }),
      ...(tier.extensionName === undefined ? {} : { extensionName: tier.extensionName }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (skills.length === 0 && tier.explicit) reportEmpty(tier.dir, logger);
    const hydrate = tier.hydrate;
    const tierSkills = hydrate
      ? skills.map((s) => ({
          ...s,
          name: hydrate(s.name),
          description: hydrate(s.description),
          body: hydrate(s.body),
          location: hydrate(s.location),
        }))
      : skills;
    for (const skill of tierSkills) {
      const previous = byName.get(skill.name);
      if (previous && previous.location !== skill.location) {
        const message = `Skill conflict detected: "${skill.name}" from "${skill.location}" is overriding the same skill from "${previous.location}".`;
        if (previous.isBuiltin) logger.debug(message, { name: skill.name });
        else logger.warn(message, { name: skill.name });
      }
      byName.set(skill.name, skill);
    }
  }
  return [...byName.values()];
}

function reportEmpty(dir: string, logger: Logger): void {
  logger.warn(
    `No skills loaded from ${dir}: it must be a directory holding SKILL.md, or subdirectories that do.`,
    { dir },
  );
}
