import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve, win32 } from 'node:path';
import { ConfigurationError } from '../errors.js';
import { isWithin } from '../workspace/is-within.js';
import { baseVariables, hydrateValue } from './extension-variables.js';

/** The manifest's file name. */
export const EXTENSION_MANIFEST = 'gemini-extension.json';
/** The metadata file `gemini extensions install` / `link` writes in the installed folder. */
export const INSTALL_METADATA_FILE = '.gemini-extension-install.json';
/** An extension's user-scope settings file (in its folder; the workspace scope is `<workspace>/.env`). */
export const EXTENSION_ENV_FILE = '.env';

/** One entry of a manifest's `settings`: a value the user provides, handed to the extension as `envVar`. */
export interface ExtensionSetting {
  name: string;
  description: string;
  envVar: string;
  /**
   * The value is a secret: gemini-cli keeps it in a keychain (the SDK reads and writes gemini-cli's keychain file,
   * see docs/extensions.md), not in `.env`, and asks for it with hidden input.
   */
  sensitive?: boolean;
}

/** `gemini-extension.json` as gemini-cli 0.61 reads it (other keys are kept but unused). */
export interface ExtensionManifest {
  name: string;
  version: string;
  description?: string;
  mcpServers?: Record<string, Record<string, unknown>>;
  contextFileName?: string | string[];
  excludeTools?: string[];
  settings?: ExtensionSetting[];
  themes?: unknown[];
  plan?: { directory?: string };
  migratedTo?: string;
  [key: string]: unknown;
}

/** How the folder was installed (`.gemini-extension-install.json`). */
export interface InstallMetadata {
  source: string;
  type: 'git' | 'local' | 'link' | 'github-release';
  ref?: string;
  autoUpdate?: boolean;
  allowPreRelease?: boolean;
  releaseTag?: string;
}

/** An extension problem with gemini-cli's wording; `code` `EXTENSION_INVALID`. */
export class ExtensionError extends ConfigurationError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'EXTENSION_INVALID' });
  }
}

/** gemini-cli's name rule. */
export const EXTENSION_NAME = /^[a-zA-Z0-9-]+$/;

/** @throws ExtensionError with gemini-cli's text when the name has other characters than letters, digits, `-`. */
export function validateExtensionName(name: string): void {
  if (!EXTENSION_NAME.test(name)) {
    throw new ExtensionError(
      `Invalid extension name: "${name}". Only letters (a-z, A-Z), numbers (0-9), and dashes (-) are allowed.`,
    );
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads `.gemini-extension-install.json`; undefined when missing or unreadable (gemini-cli ignores it then). */
export function readInstallMetadata(dir: string): InstallMetadata | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(join(dir, INSTALL_METADATA_FILE), 'utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const meta = value as Partial<InstallMetadata>;
    if (typeof meta.source !== 'string' || typeof meta.type !== 'string') return undefined;
    return meta as InstallMetadata;
  } catch {
    return undefined;
  }
}

/**
 * Reads and checks `<dir>/gemini-extension.json` as gemini-cli's `loadExtensionConfig` does: JSON, `name` and
 * `version` present, `${extensionPath}`, `${workspacePath}`, `${/}`, `${pathSeparator}` substituted, then the name
 * rule. The error texts are gemini-cli's.
 *
 * @throws ExtensionError `Failed to load extension config from <file>: <reason>`.
 */
export function readExtensionManifest(dir: string, workspacePath: string): ExtensionManifest {
  const file = join(dir, EXTENSION_MANIFEST);
  if (!existsSync(file)) throw new ExtensionError(`Configuration file not found at ${file}`);
  try {
    const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new ExtensionError(`Invalid configuration in ${file}: expected a JSON object`);
    }
    const config = raw as Record<string, unknown>;
    if (!config['name'] || !config['version']) {
      throw new ExtensionError(
        `Invalid configuration in ${file}: missing ${!config['name'] ? '"name"' : '"version"'}`,
      );
    }
    const hydrated = hydrateValue(config, baseVariables(dir, workspacePath));
    if (typeof hydrated['name'] !== 'string') {
      throw new ExtensionError(`Invalid configuration in ${file}: "name" must be a string`);
    }
    if (typeof hydrated['version'] !== 'string') {
      throw new ExtensionError(`Invalid configuration in ${file}: "version" must be a string`);
    }
    validateExtensionName(hydrated['name']);
    return hydrated as ExtensionManifest;
  } catch (error) {
    throw new ExtensionError(`Failed to load extension config from ${file}: ${message(error)}`, {
      cause: error,
    });
  }
}

/**
 * The context files of a manifest (`contextFileName`, default `GEMINI.md`), as gemini-cli 0.61 resolves them: an
 * absolute path, a `..` (also URL-encoded) or a path outside the folder is refused with a warning (the extension
 * still loads); missing files are skipped.
 */
export function manifestContextFiles(
  manifest: ExtensionManifest,
  dir: string,
  warn: (message: string) => void,
): string[] {
  const given = manifest.contextFileName;
  const names: unknown[] =
    given === undefined || given === '' ? ['GEMINI.md'] : Array.isArray(given) ? given : [given];
  const root = resolve(dir);
  const files: string[] = [];
  for (const name of names) {
    const problem = contextFileProblem(name, root);
    if (problem !== undefined) {
      warn(
        `[ExtensionManager] Invalid contextFileName: "${String(name)}" in extension "${manifest.name}". ${problem}`,
      );
      continue;
    }
    const path = resolve(root, name as string);
    if (existsSync(path)) files.push(path);
  }
  return files;
}

/** Why a `contextFileName` entry is refused (gemini-cli 0.61's texts), or undefined when it is fine. */
export function contextFileProblem(name: unknown, root: string): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'expected a non-empty string.';
  if (name.includes('\0')) return 'null bytes are not allowed.';
  if (isAbsolute(name) || win32.isAbsolute(name)) return 'Absolute paths are not allowed.';
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // gemini-cli proceeds with the undecoded name
  }
  if (name.includes('..') || decoded.includes('..')) {
    return 'Relative parent directory references ("..") are not allowed.';
  }
  if (!isWithin(resolve(root, name), root)) {
    return `escapes the extension directory boundary ("${root}").`;
  }
  return undefined;
}
