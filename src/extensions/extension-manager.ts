import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { LoadedSettings } from '../settings/load-settings.js';
import { geminiHome, trustedFoldersPath } from '../settings/settings-paths.js';
import { loadSkillsFromDir } from '../skills/skill-loader.js';
import { extensionConsentText } from './extension-consent.js';
import { ExtensionEnablement } from './extension-enablement.js';
import { checkInstallAllowed, extensionSecurity } from './extension-security.js';
import {
  fetchSource,
  copyExtension,
  extensionId,
  inferInstallMetadata,
  trustFolder,
  writeInstallMetadata,
} from './extension-install.js';
import {
  ExtensionError,
  readExtensionManifest,
  type InstallMetadata,
} from './extension-manifest.js';
import {
  CONFIG_DISABLED,
  configureExtensions,
  promptForSettings,
  type ConfigureOptions,
  type ExtensionSettingRequest,
  type SettingsStore,
} from './extension-config.js';
import { extensionInfo, type ExtensionInfo } from './extension-info.js';
import { extensionConfigEnabled, missingSettingsWarning } from './extension-settings.js';
import { resolveExtensions } from './extension-set.js';
import {
  checkForExtensionUpdate,
  replaceExtension,
  type ExtensionUpdateCheck,
  type ExtensionUpdateInfo,
  type UpdateContext,
  type UpdateOptions,
  updateTarget,
} from './extension-update.js';
import type { ResolvedExtension } from './resolved-extension.js';

export type { ConfigureOptions, ExtensionSettingRequest } from './extension-config.js';

/** Options of {@link ExtensionManager}. */
export interface ExtensionManagerOptions {
  /** The working folder (workspace scope, `${workspacePath}`). */
  cwd: string;
  /** The settings (`loadSettings({ cwd })`): trust, `security.allowedExtensions`, `hooksConfig`, … */
  settings: LoadedSettings;
  /** Environment for `GEMINI_CLI_HOME` and `$VAR` references (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** How an install asks the user. */
export interface InstallOptions {
  /**
   * Asked with gemini-cli's consent text (and, in an untrusted folder, whether to trust it); resolve `true` to go
   * on. Without it the install is refused, as a "no" would.
   */
  consent?: (text: string) => boolean | Promise<boolean>;
  /** A git ref (branch, tag, commit) to install (git sources only). */
  ref?: string;
  autoUpdate?: boolean;
  allowPreRelease?: boolean;
  /** Called once the source is found (before it is fetched and checked), with its resolved location. */
  onSourceResolved?: (source: string) => void;
  /** Told gemini-cli's warning when the installed extension has settings without a value. */
  onWarning?: (message: string) => void;
  /** Asked for each setting once installed (gemini-cli's prompts); without it nothing is asked. */
  requestSetting?: ExtensionSettingRequest;
}

/** What {@link ExtensionManager.updateAll} did: the extensions updated, and those whose update failed. */
export interface UpdateAllResult {
  updated: ExtensionUpdateInfo[];
  failed: Array<{ name: string; error: Error }>;
}

/** Where an enable/disable rule applies: the home folder and below (`user`), or the working folder (`workspace`). */
export type ExtensionScope = 'user' | 'workspace';

/**
 * Installs, links, lists, enables, disables and uninstalls gemini-cli extensions in `~/.gemini/extensions`, with
 * gemini-cli 0.61's files (`.gemini-extension-install.json`, `extension-enablement.json`), checks and texts. The
 * `gemini-agent extensions` commands are built on it.
 */
export class ExtensionManager {
  /** `~/.gemini/extensions`. */
  readonly extensionsDir: string;
  private readonly home: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: ExtensionManagerOptions) {
    this.env = options.env ?? process.env;
    this.home = geminiHome(this.env);
    this.extensionsDir = join(this.home, '.gemini', 'extensions');
  }

  private get enablement(): ExtensionEnablement {
    return new ExtensionEnablement(this.extensionsDir);
  }

  /** The installed extensions that load, and the warnings about those that do not. */
  loadInstalled(): { extensions: ResolvedExtension[]; warnings: readonly string[] } {
    const merged = this.options.settings.merged;
    const result = resolveExtensions({
      references: [],
      discover: true,
      extensionsDir: this.extensionsDir,
      adminDisabled: merged.admin?.extensions?.enabled === false,
      workspaceDir: this.options.cwd,
      trusted: this.options.settings.trust.trusted,
      hooksEnabled: merged.hooksConfig?.enabled !== false,
      settingsEnabled: this.settingsEnabled,
      env: this.env,
      home: this.home,
      security: extensionSecurity(merged),
    });
    return { extensions: result.all.map((s) => s.extension), warnings: result.warnings };
  }

  /** Every installed extension that loads, with its enablement, in folder order. */
  async list(): Promise<ExtensionInfo[]> {
    const infos: ExtensionInfo[] = [];
    for (const ext of this.loadInstalled().extensions)
      infos.push(await extensionInfo(this.enablement, this.home, this.options.cwd, ext));
    return infos;
  }

  /** The installed extension named `name` (exact), or the error gemini-cli gives. */
  private find(name: string): ResolvedExtension {
    const found = this.loadInstalled().extensions.find((e) => e.name === name);
    if (!found) throw new ExtensionError(`Extension with name ${name} does not exist.`);
    return found;
  }

  private checkAllowed(metadata: InstallMetadata): void {
    checkInstallAllowed(
      extensionSecurity(this.options.settings.merged),
      metadata,
      this.options.cwd,
    );
  }

  /**
   * Installs an extension from a local folder or a git URL (cloned with the system `git`): checks it, asks for
   * consent with gemini-cli's text, copies it to `~/.gemini/extensions/<name>`, records the source and enables it
   * for the user. Returns what `list()` shows of it.
   *
   * @throws ExtensionError `Install source not found.`, `Extension "<n>" is already installed. Please uninstall it
   *   first.`, `Installation cancelled for "<n>".`, a manifest error, a clone error.
   */
  install(source: string, options: InstallOptions = {}): Promise<ExtensionInfo> {
    return this.add(source, options, false);
  }

  /** Links a local folder: only the metadata is written, so edits to the folder are live. */
  link(
    path: string,
    options: Omit<InstallOptions, 'ref' | 'autoUpdate' | 'allowPreRelease'> = {},
  ): Promise<ExtensionInfo> {
    return this.add(path, options, true);
  }

  /** gemini-cli asks to trust an untrusted working folder before it installs or updates anything. */
  private async ensureTrusted(
    consent: (text: string) => boolean | Promise<boolean>,
  ): Promise<void> {
    if (this.options.settings.trust.trusted) return;
    const ok = await consent(
      `The current workspace at "${this.options.cwd}" is not trusted. Do you want to trust this workspace to install extensions?`,
    );
    if (!ok) {
      throw new ExtensionError(
        `Could not install extension because the current workspace at ${this.options.cwd} is not trusted.`,
      );
    }
    await trustFolder(trustedFoldersPath(this.home, this.env), this.options.cwd);
  }

  private async add(
    source: string,
    options: InstallOptions,
    link: boolean,
  ): Promise<ExtensionInfo> {
    const consent = options.consent ?? (() => false);
    const metadata = link
      ? { ...(await inferInstallMetadata(source, this.options.cwd)), type: 'link' as const }
      : await inferInstallMetadata(source, this.options.cwd, options);
    if (link && metadata.source.includes('://')) {
      throw new ExtensionError('Only a local folder can be linked.');
    }
    options.onSourceResolved?.(metadata.source);
    this.checkAllowed(metadata);
    await this.ensureTrusted(consent);
    await mkdir(this.extensionsDir, { recursive: true });
    let temp: string | undefined;
    try {
      const source = await fetchSource(metadata);
      temp = source.temp;
      const from = source.from;
      const manifest = readExtensionManifest(from, this.options.cwd);
      if (this.loadInstalled().extensions.some((e) => e.name === manifest.name)) {
        throw new ExtensionError(
          `Extension "${manifest.name}" is already installed. Please uninstall it first.`,
        );
      }
      const skills = await loadSkillsFromDir(join(from, 'skills'));
      const text = await extensionConsentText(
        manifest,
        existsSync(join(from, 'hooks', 'hooks.json')),
        skills,
      );
      if (!(await consent(text))) {
        throw new ExtensionError(`Installation cancelled for "${manifest.name}".`);
      }
      const destination = join(this.extensionsDir, manifest.name);
      if (existsSync(destination)) {
        throw new ExtensionError(
          `Cannot install extension "${manifest.name}" because a directory with that name already exists. Please remove it manually.`,
        );
      }
      try {
        if (!link) await copyExtension(from, destination);
        await writeInstallMetadata(destination, metadata);
        if (options.requestSetting && this.settingsEnabled) {
          const store = this.store(manifest.name, metadata, 'user');
          await promptForSettings(store, manifest.settings, options.requestSetting);
        }
        this.enablement.enable(manifest.name, this.home);
      } catch (error) {
        await rm(destination, { recursive: true, force: true });
        throw error;
      }
      const installed = this.loadInstalled().extensions.find((e) => e.name === manifest.name);
      if (!installed)
        throw new ExtensionError(`Extension "${manifest.name}" was installed but does not load.`);
      const warning = missingSettingsWarning(installed);
      if (warning) options.onWarning?.(warning);
      return await extensionInfo(this.enablement, this.home, this.options.cwd, installed);
    } finally {
      if (temp) await rm(temp, { recursive: true, force: true });
    }
  }

  /**
   * Checks an installed extension for an update as gemini-cli does: a local install compares its source folder's
   * version, a git install the remote's commit for its ref with the checkout's. Links are not updatable.
   *
   * @throws ExtensionError `Extension with name <n> does not exist.`
   */
  async checkForUpdate(name: string): Promise<ExtensionUpdateCheck> {
    const ext = this.find(name);
    return checkForExtensionUpdate(updateTarget(ext), this.options.cwd);
  }

  /** `experimental.extensionConfig` (default true): settings are read, asked for and configured only then. */
  private get settingsEnabled(): boolean {
    return extensionConfigEnabled(this.options.settings.merged);
  }

  private store(
    name: string,
    meta: InstallMetadata | undefined,
    scope: ExtensionScope,
  ): SettingsStore {
    const { extensionsDir, options } = this;
    return { name, id: extensionId(name, meta), extensionsDir, scope, workspaceDir: options.cwd };
  }

  private updateContext(): UpdateContext {
    return {
      settingsEnabled: this.settingsEnabled,
      store: (name, metadata) => this.store(name, metadata, 'user'),
      extensionsDir: this.extensionsDir,
      home: this.home,
      cwd: this.options.cwd,
      installed: () => this.loadInstalled().extensions,
      checkAllowed: (metadata) => this.checkAllowed(metadata),
      ensureTrusted: (consent) => this.ensureTrusted(consent),
      enablement: this.enablement,
    };
  }

  /**
   * Updates an installed extension when {@link ExtensionManager.checkForUpdate} finds one: fetches the source
   * again, asks `consent` when what it would run changed (gemini-cli's text; a rename or a `migratedTo` source
   * says so), replaces the installed folder and keeps its settings (`.env`) and where it is enabled. When anything
   * fails the previous folder is put back. Returns the versions before and after (equal: it was up to date).
   *
   * @throws ExtensionError `Extension with name <n> does not exist.`, `Extension is linked so does not need to be
   *   updated`, `Installation cancelled for "<n>".`, a clone or manifest error, or the reason the check failed.
   */
  async update(name: string, options: UpdateOptions = {}): Promise<ExtensionUpdateInfo> {
    const ext = this.find(name);
    const metadata = ext.installMetadata;
    if (metadata === undefined) {
      throw new ExtensionError(
        `Unable to install extension "${name}" due to missing install metadata`,
      );
    }
    if (metadata.type === 'link') {
      throw new ExtensionError('Extension is linked so does not need to be updated');
    }
    const check = await checkForExtensionUpdate(updateTarget(ext), this.options.cwd);
    if (check.state === 'error' || (check.state === 'not updatable' && check.reason)) {
      throw new ExtensionError(
        check.reason ?? `Extension "${name}" cannot be checked for updates.`,
      );
    }
    if (check.state !== 'update available') {
      return { name, originalVersion: ext.version, updatedVersion: ext.version };
    }
    return replaceExtension(this.updateContext(), ext, metadata, options);
  }

  /**
   * Updates every installed extension that has an update (gemini-cli's `--all`); one failing does not stop the
   * others. Extensions already up to date are in neither list.
   */
  async updateAll(options: UpdateOptions = {}): Promise<UpdateAllResult> {
    const result: UpdateAllResult = { updated: [], failed: [] };
    for (const ext of this.loadInstalled().extensions) {
      const check = await checkForExtensionUpdate(updateTarget(ext), this.options.cwd);
      if (check.state !== 'update available' || ext.installMetadata === undefined) continue;
      try {
        const info = await replaceExtension(
          this.updateContext(),
          ext,
          ext.installMetadata,
          options,
        );
        if (info.originalVersion !== info.updatedVersion) result.updated.push(info);
      } catch (error) {
        result.failed.push({
          name: ext.name,
          error: error instanceof Error ? error : new Error(String(error)),
        });
      }
    }
    return result;
  }

  /**
   * Uninstalls by name or by install source (case-insensitive): removes its folder in `~/.gemini/extensions` (a
   * linked folder itself stays) and its enablement rules. Returns its name.
   *
   * @throws ExtensionError `Extension not found.`
   */
  async uninstall(nameOrSource: string): Promise<string> {
    const key = nameOrSource.toLowerCase();
    const ext = this.loadInstalled().extensions.find(
      (e) => e.name.toLowerCase() === key || e.installMetadata?.source.toLowerCase() === key,
    );
    if (!ext) throw new ExtensionError('Extension not found.');
    const dir = join(
      this.extensionsDir,
      ext.installMetadata?.type === 'link' ? ext.name : basename(ext.installDir ?? ext.name),
    );
    await rm(dir, { recursive: true, force: true });
    this.enablement.remove(ext.name);
    return ext.name;
  }

  /**
   * gemini-cli's `extensions config [name] [setting]`: asks for one setting, every setting of `name`, or of every
   * installed extension; sensitive values go to gemini-cli's keychain file, others to the scope's `.env`
   * (`~/.gemini/extensions/<name>/.env`, or `<cwd>/.env` for `workspace`). See docs/extensions.md.
   *
   * @throws ExtensionError gemini-cli's texts (not installed, setting not found, bad name, disabled).
   */
  async configure(name: string | undefined, options: ConfigureOptions): Promise<void> {
    if (!this.settingsEnabled) throw new ExtensionError(CONFIG_DISABLED);
    const store = (e: ResolvedExtension) =>
      this.store(e.name, e.installMetadata, options.scope ?? 'user');
    const installed = this.loadInstalled().extensions;
    await configureExtensions(installed, name, options, store, this.options.cwd);
  }

  /**
   * Enables an installed extension for the user (the home folder and below) or the workspace (the working folder
   * and below). @throws ExtensionError `Extension with name <n> does not exist.`
   */
  enable(name: string, scope: ExtensionScope = 'user'): void {
    this.find(name);
    this.enablement.enable(name, scope === 'workspace' ? this.options.cwd : this.home);
  }

  /** Disables an installed extension for the user or the workspace (see {@link ExtensionManager.enable}). */
  disable(name: string, scope: ExtensionScope = 'user'): void {
    this.find(name);
    this.enablement.disable(name, scope === 'workspace' ? this.options.cwd : this.home);
  }
}
