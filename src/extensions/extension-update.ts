import type * as ChildProcesses from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadSkillsFromDir } from '../skills/skill-loader.js';
import { extensionConsentText } from './extension-consent.js';
import type { ExtensionEnablement } from './extension-enablement.js';
import { fetchSource, copyExtension, gitEnv, writeInstallMetadata } from './extension-install.js';
import {
  EXTENSION_ENV_FILE,
  ExtensionError,
  readExtensionManifest,
  type InstallMetadata,
} from './extension-manifest.js';
import type { ResolvedExtension } from './resolved-extension.js';
import {
  promptForSettings,
  scopedSettingsValues,
  type ExtensionSettingRequest,
  type SettingsStore,
} from './extension-config.js';
import { missingSettingsWarning, settingsOf } from './extension-settings.js';
import { builtinModule } from '../lazy-require.js';

/** gemini-cli's update states (`ExtensionUpdateState`), with its texts as values. */
export type ExtensionUpdateState = 'update available' | 'up to date' | 'not updatable' | 'error';

/** What checking an installed extension for an update found. */
export interface ExtensionUpdateCheck {
  state: ExtensionUpdateState;
  /** Why it is `error` or `not updatable`, when there is more to say (gemini-cli's texts). */
  reason?: string;
}

/** The result of an update: the versions before and after (equal when it was already up to date). */
export interface ExtensionUpdateInfo {
  name: string;
  originalVersion: string;
  updatedVersion: string;
}

/** What an installed extension's update check reads. */
export interface UpdateCheckTarget {
  name: string;
  version: string;
  /** The installed folder (a git checkout for `git` installs). */
  path: string;
  installMetadata: InstallMetadata | undefined;
}

async function git(args: string[], cwd: string): Promise<string> {
  const run = promisify(builtinModule<typeof ChildProcesses>('node:child_process').execFile);
  const { stdout } = await run('git', args, {
    cwd,
    env: gitEnv(),
    timeout: 5 * 60_000,
    maxBuffer: 16 << 20,
  });
  return stdout;
}

/**
 * gemini-cli 0.61's `checkForExtensionUpdate`: a `local` install compares the source folder's manifest version
 * with the installed one; a `git` install compares `git ls-remote <remote> <ref or HEAD>` with the checkout's
 * `HEAD`; links and extensions without install metadata are not updatable. `github-release` installs need
 * GitHub's release API, which the SDK does not call: not updatable, with the reason.
 */
export async function checkForExtensionUpdate(
  target: UpdateCheckTarget,
  workspaceDir: string,
): Promise<ExtensionUpdateCheck> {
  const meta = target.installMetadata;
  if (meta?.type === 'local') {
    try {
      const latest = readExtensionManifest(meta.source, workspaceDir);
      return { state: latest.version === target.version ? 'up to date' : 'update available' };
    } catch (error) {
      return {
        state: 'not updatable',
        reason: `Failed to check for update for local extension "${target.name}". Could not load extension from source path: ${meta.source}. Error: ${(error as Error).message}`,
      };
    }
  }
  if (meta?.type === 'github-release') {
    return {
      state: 'not updatable',
      reason: `Extension "${target.name}" was installed from a GitHub release; gemini-agent updates git and local installs only. Reinstall it from its git URL to update it here.`,
    };
  }
  if (meta?.type !== 'git') return { state: 'not updatable' };
  try {
    const remotes = (await git(['remote', '-v'], target.path))
      .split('\n')
      .map((line) => /^(\S+)\t(.+) \(fetch\)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null);
    const first = remotes[0];
    if (first === undefined) return { state: 'error', reason: 'No git remotes found.' };
    const url = first[2] as string;
    const ref = meta.ref || 'HEAD';
    const listing = (await git(['ls-remote', '--', url, ref], target.path)).trim();
    if (listing === '') return { state: 'error', reason: `Git ref ${ref} not found.` };
    const remoteHash = listing.split('\t')[0];
    if (!remoteHash) {
      return {
        state: 'error',
        reason: `Unable to parse hash from git ls-remote output "${listing}"`,
      };
    }
    const localHash = (await git(['rev-parse', 'HEAD'], target.path)).trim();
    return { state: remoteHash === localHash ? 'up to date' : 'update available' };
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    const detail =
      e.code === 'ENOENT' ? 'git was not found on the PATH' : (e.stderr || e.message).trim();
    return {
      state: 'error',
      reason: `Failed to check for updates for extension "${meta.source}": ${detail}`,
    };
  }
}

/** How an update asks the user: `consent` gets gemini-cli's text when it changed (no callback: the answer is no). */
export interface UpdateOptions {
  consent?: (text: string) => boolean | Promise<boolean>;
  /** Told gemini-cli's warning when the updated extension has settings without a value. */
  onWarning?: (message: string) => void;
  /**
   * Asked for each setting the new version adds (or whose `sensitive` changed), as gemini-cli does on update;
   * removed settings are dropped. Without it the `.env` is kept as it is and nothing is asked.
   */
  requestSetting?: ExtensionSettingRequest;
}

/** What an update needs from the {@link ExtensionManager} that runs it. */
export interface UpdateContext {
  /** `experimental.extensionConfig` (default true). */
  settingsEnabled: boolean;
  /** Where an extension's user-scope settings are stored. */
  store(name: string, metadata: InstallMetadata | undefined): SettingsStore;
  extensionsDir: string;
  home: string;
  cwd: string;
  /** The installed extensions that load, read now. */
  installed(): ResolvedExtension[];
  /** `security.allowedExtensions` / `blockGitExtensions`. @throws ExtensionError */
  checkAllowed(metadata: InstallMetadata): void;
  /** Asks to trust an untrusted working folder. @throws ExtensionError */
  ensureTrusted(consent: (text: string) => boolean | Promise<boolean>): Promise<void>;
  enablement: ExtensionEnablement;
}

/** The check target of an installed extension (its installed folder is the git checkout). */
export function updateTarget(ext: ResolvedExtension): UpdateCheckTarget {
  return {
    name: ext.name,
    version: ext.version,
    path: ext.installDir ?? ext.path ?? '',
    installMetadata: ext.installMetadata,
  };
}

/** Renames a folder; across file systems (EXDEV), copies it and removes the original. */
async function moveDir(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(from, to, { recursive: true, verbatimSymlinks: true });
    await rm(from, { recursive: true, force: true });
  }
}

/**
 * gemini-cli's `installOrUpdateExtension` with a previous config, made safe: the new version is copied next to the
 * previous folder, which is moved back when anything fails (docs/decisions.md D27).
 */
export async function replaceExtension(
  ctx: UpdateContext,
  previous: ResolvedExtension,
  installed: InstallMetadata,
  options: UpdateOptions,
): Promise<ExtensionUpdateInfo> {
  const consent = options.consent ?? (() => false);
  const previousDir = previous.installDir ?? join(ctx.extensionsDir, previous.name);
  const previousManifest = readExtensionManifest(previousDir, ctx.cwd);
  const metadata: InstallMetadata = { ...installed };
  let migrated = false;
  if (typeof previousManifest.migratedTo === 'string' && previousManifest.migratedTo !== '') {
    const moved = await checkForExtensionUpdate(
      {
        ...updateTarget(previous),
        installMetadata: { ...metadata, source: previousManifest.migratedTo },
      },
      ctx.cwd,
    );
    if (moved.state === 'update available' || moved.state === 'up to date') {
      metadata.source = previousManifest.migratedTo;
      migrated = true;
    }
  }
  ctx.checkAllowed(metadata);
  await ctx.ensureTrusted(consent);
  let temp: string | undefined;
  let backup: string | undefined;
  try {
    const source = await fetchSource(metadata);
    temp = source.temp;
    const from = source.from;
    const manifest = readExtensionManifest(from, ctx.cwd);
    const renamed = manifest.name !== previous.name;
    if (renamed && ctx.installed().some((e) => e.name === manifest.name)) {
      throw new ExtensionError(
        `Cannot update to "${manifest.name}" because an extension with that name is already installed.`,
      );
    }
    const text = await extensionConsentText(
      manifest,
      existsSync(join(from, 'hooks', 'hooks.json')),
      await loadSkillsFromDir(join(from, 'skills')),
      { previousName: previous.name, migrated },
    );
    const previousText = await extensionConsentText(
      previousManifest,
      previous.commandHooks.length > 0,
      await installedSkills(previous),
    );
    if (text !== previousText && !(await consent(text))) {
      throw new ExtensionError(`Installation cancelled for "${manifest.name}".`);
    }
    const destination = join(ctx.extensionsDir, manifest.name);
    if (renamed && existsSync(destination)) {
      throw new ExtensionError(
        `Cannot install extension "${manifest.name}" because a directory with that name already exists. Please remove it manually.`,
      );
    }
    const request = ctx.settingsEnabled ? options.requestSetting : undefined;
    const previousSettings = settingsOf(previousManifest.settings);
    const previousValues = request
      ? scopedSettingsValues(ctx.store(previous.name, previous.installMetadata), previousSettings)
      : {};
    backup = await mkdtemp(join(ctx.home, '.gemini', 'extension-update-'));
    await moveDir(previousDir, join(backup, 'previous'));
    try {
      await copyExtension(from, destination);
      await keepSettings(join(backup, 'previous'), destination);
      await writeInstallMetadata(destination, metadata);
      if (request) {
        await promptForSettings(ctx.store(manifest.name, metadata), manifest.settings, request, {
          settings: previousSettings,
          values: previousValues,
        });
      }
      const updated = ctx.installed().find((e) => e.name === manifest.name);
      if (!updated) {
        throw new ExtensionError(
          `Updated extension not found after installation: "${manifest.name}" does not load.`,
        );
      }
    } catch (error) {
      await rm(destination, { recursive: true, force: true });
      await moveDir(join(backup, 'previous'), previousDir);
      throw error;
    }
    if (renamed) ctx.enablement.rename(previous.name, manifest.name);
    const updated = ctx.installed().find((e) => e.name === manifest.name);
    const warning = updated && missingSettingsWarning(updated);
    if (warning) options.onWarning?.(warning);
    return {
      name: previous.name,
      originalVersion: previous.version,
      updatedVersion: manifest.version,
    };
  } finally {
    if (temp) await rm(temp, { recursive: true, force: true });
    if (backup) await rm(backup, { recursive: true, force: true });
  }
}

/** The skills of an installed extension as its consent text lists them (hydrated, at their installed paths). */
async function installedSkills(ext: ResolvedExtension) {
  const hydrate = ext.skills?.hydrate ?? ((t: string) => t);
  const skills = ext.path ? await loadSkillsFromDir(join(ext.path, 'skills')) : [];
  return skills.map((s) => ({
    ...s,
    name: hydrate(s.name),
    description: hydrate(s.description),
    location: hydrate(s.location),
  }));
}

/** Carries the user's settings file (`.env`) of the previous folder into the updated one. */
async function keepSettings(previousDir: string, destination: string): Promise<void> {
  const file = join(previousDir, EXTENSION_ENV_FILE);
  if (existsSync(file)) await copyExtension(file, join(destination, EXTENSION_ENV_FILE));
}
