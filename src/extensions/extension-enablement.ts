import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExtensionError } from './extension-manifest.js';

/** The enablement file's name, in `~/.gemini/extensions`. */
export const ENABLEMENT_FILE = 'extension-enablement.json';

/** `extension-enablement.json`: per extension, path rules (`/abs/path/*` enables, `!/abs/path/*` disables). */
export type EnablementConfig = Record<string, { overrides: string[] }>;

interface Override {
  base: string;
  disable: boolean;
  subdirs: boolean;
}

/** Forward slashes, one leading and one trailing `/` (gemini-cli's normal form of a rule's path). */
function slashed(path: string): string {
  let out = path.replace(/\\/g, '/');
  if (!out.startsWith('/')) out = `/${out}`;
  if (!out.endsWith('/')) out = `${out}/`;
  return out;
}

function fromFileRule(rule: string): Override {
  const disable = rule.startsWith('!');
  let base = disable ? rule.slice(1) : rule;
  const subdirs = base.endsWith('*');
  if (subdirs) base = base.slice(0, -1);
  return { base, disable, subdirs };
}

function fromInput(path: string, subdirs: boolean): Override {
  const disable = path.startsWith('!');
  return { base: slashed(disable ? path.slice(1) : path), disable, subdirs };
}

function output(o: Override): string {
  return `${o.disable ? '!' : ''}${o.base}${o.subdirs ? '*' : ''}`;
}

/** gemini-cli's glob: `*` (with the `/` before it) matches anything, or nothing; the rest is literal. */
function matches(o: Override, path: string): boolean {
  const glob = `${o.base}${o.subdirs ? '*' : ''}`;
  const source = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/(\/?)\*/g, '($1.*)?');
  return new RegExp(`^${source}$`).test(path);
}

/**
 * gemini-cli's extension enablement: `-e a,b` (names, case-insensitive) overrides everything (`none` alone
 * disables all); otherwise the file's rules for the extension are checked in order against the path, and the last
 * one that matches decides. Enabled by default.
 */
export class ExtensionEnablement {
  readonly file: string;
  private readonly only: string[];

  /**
   * @param extensionsDir `~/.gemini/extensions`.
   * @param only The `-e` list (names), if any.
   */
  constructor(
    readonly extensionsDir: string,
    only: readonly string[] | undefined = undefined,
  ) {
    this.file = join(extensionsDir, ENABLEMENT_FILE);
    this.only = (only ?? []).map((n) => n.trim().toLowerCase()).filter((n) => n !== '');
  }

  /** The `-e` names that match no extension (gemini-cli reports `Extension not found: <name>`). */
  unknownNames(names: readonly string[]): string[] {
    const known = new Set(names.map((n) => n.toLowerCase()));
    return this.only.filter((n) => n !== 'none' && !known.has(n));
  }

  /** Whether `name` is enabled at `path` (an absolute folder). */
  isEnabled(name: string, path: string): boolean {
    if (this.only.length === 1 && this.only[0] === 'none') return false;
    if (this.only.length > 0) return this.only.includes(name.toLowerCase());
    let enabled = true;
    const target = slashed(path);
    for (const rule of this.read()[name]?.overrides ?? []) {
      const o = fromFileRule(rule);
      if (matches(o, target)) enabled = !o.disable;
    }
    return enabled;
  }

  /**
   * The file's content; `{}` when it is missing. A malformed file reads as `{}` (gemini-cli reports it and goes
   * on with defaults).
   *
   * @throws never.
   */
  read(): EnablementConfig {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return {};
    }
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
      const out: EnablementConfig = {};
      for (const [name, entry] of Object.entries(value)) {
        const overrides = (entry as { overrides?: unknown } | null)?.overrides;
        if (!Array.isArray(overrides) || !overrides.every((r) => typeof r === 'string')) return {};
        Object.defineProperty(out, name, {
          value: { overrides: [...(overrides as string[])] },
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    } catch {
      return {};
    }
  }

  /** True when the file exists but is not gemini-cli's shape (`Failed to read extension enablement config.`). */
  isMalformed(): boolean {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return false;
    }
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return true;
      return Object.values(value).some((entry) => {
        const overrides = (entry as { overrides?: unknown } | null)?.overrides;
        return !Array.isArray(overrides) || !overrides.every((r) => typeof r === 'string');
      });
    } catch {
      return true;
    }
  }

  /** Enables `name` at `scopePath` and below (gemini-cli: removes conflicting and covered rules, appends). */
  enable(name: string, scopePath: string, subdirs = true): void {
    this.write(name, fromInput(scopePath, subdirs));
  }

  /** Disables `name` at `scopePath` and below. */
  disable(name: string, scopePath: string, subdirs = true): void {
    this.write(name, fromInput(`!${scopePath}`, subdirs));
  }

  /** Forgets every rule of `name` (on uninstall). */
  remove(name: string): void {
    const config = this.read();
    if (!Object.prototype.hasOwnProperty.call(config, name)) return;
    delete config[name];
    this.save(config);
  }

  /**
   * Moves the rules of `from` to `to` unchanged (an update that renames an extension keeps where it was enabled
   * and disabled; gemini-cli re-enables the new name only where the old one was enabled).
   */
  rename(from: string, to: string): void {
    const config = this.read();
    if (!Object.prototype.hasOwnProperty.call(config, from)) return;
    const rules = config[from] as { overrides: string[] };
    delete config[from];
    Object.defineProperty(config, to, {
      value: rules,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    this.save(config);
  }

  private write(name: string, rule: Override): void {
    if (this.isMalformed()) {
      throw new ExtensionError(
        `Failed to read extension enablement config: ${this.file} is not valid. Fix or delete it, then retry.`,
      );
    }
    const config = this.read();
    const current = Object.prototype.hasOwnProperty.call(config, name)
      ? (config[name] as { overrides: string[] }).overrides
      : [];
    const kept = current.filter((text) => {
      const o = fromFileRule(text);
      if (o.base === rule.base) return false; // the same path: conflicting or equal, replaced
      return !(rule.subdirs && matches({ ...rule, disable: false }, o.base));
    });
    kept.push(output(rule));
    Object.defineProperty(config, name, {
      value: { overrides: kept },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    this.save(config);
  }

  private save(config: EnablementConfig): void {
    mkdirSync(this.extensionsDir, { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(config, null, 2));
    renameSync(temp, this.file);
  }
}
