import path from 'node:path';
import type { SandboxFilesystem } from '../../core/workspace-types.js';
import { compileGlob, type CompiledGlob } from '../../workspace/glob-pattern.js';
import { readTextForTool } from './safe-read.js';

/** Which ignore files to honour (gemini-cli's `file_filtering_options`). */
export interface FileFiltering {
  respectGitIgnore: boolean;
  respectGeminiIgnore: boolean;
}

interface Rule {
  glob: CompiledGlob;
  negate: boolean;
  dirOnly: boolean;
}

function parseRules(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    if (line.startsWith('\\#') || line.startsWith('\\!')) line = line.slice(1);
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.slice(0, -1);
    if (line === '') continue;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    const pattern = anchored ? line : `**/${line}`;
    rules.push({ glob: compileGlob(pattern, { dot: true }), negate, dirOnly });
  }
  return rules;
}

/** An ignore file's text; empty when missing or unsafe to read (a FIFO, oversized, hard-linked). */
async function readIgnoreFile(fs: SandboxFilesystem, file: string): Promise<string> {
  const read = await readTextForTool(fs, file);
  return read.kind === 'text' ? read.text : '';
}

/**
 * `.gitignore` / `.geminiignore` rules read (through the workspace filesystem) from the top of each workspace
 * directory. Supports gitignore's comments, `!` negation, trailing `/` for directories, leading or inner `/`
 * anchoring, and `*`, `?`, `[…]`, `**`. Nested ignore files are not read.
 */
export class IgnoreRules {
  private constructor(private readonly byRoot: Array<{ root: string; rules: Rule[] }>) {}

  /** Reads the ignore files the options ask for. */
  static async load(
    fs: SandboxFilesystem,
    roots: readonly string[],
    filtering: FileFiltering,
  ): Promise<IgnoreRules> {
    const byRoot: Array<{ root: string; rules: Rule[] }> = [];
    for (const root of roots) {
      const rules: Rule[] = [];
      if (filtering.respectGitIgnore) {
        rules.push(...parseRules(await readIgnoreFile(fs, path.join(root, '.gitignore'))));
      }
      if (filtering.respectGeminiIgnore) {
        rules.push(...parseRules(await readIgnoreFile(fs, path.join(root, '.geminiignore'))));
      }
      if (rules.length > 0) byRoot.push({ root, rules });
    }
    return new IgnoreRules(byRoot);
  }

  /** True when an absolute path (or one of its parent directories) is ignored. */
  ignores(absolutePath: string, isDirectory = false): boolean {
    for (const { root, rules } of this.byRoot) {
      const relative = path.relative(root, absolutePath);
      if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
      const segments = relative.split(path.sep);
      for (let depth = 1; depth <= segments.length; depth += 1) {
        const prefix = segments.slice(0, depth).join('/');
        const isDir = depth < segments.length || isDirectory;
        let ignored = false;
        for (const rule of rules) {
          if (rule.dirOnly && !isDir) continue;
          if (rule.glob.test(prefix)) ignored = !rule.negate;
        }
        if (ignored) return true;
      }
    }
    return false;
  }
}

/** Reads `file_filtering_options`-style flags with gemini-cli's defaults (both true). */
export function fileFiltering(options?: {
  respect_git_ignore?: boolean | undefined;
  respect_gemini_ignore?: boolean | undefined;
}): FileFiltering {
  return {
    respectGitIgnore: options?.respect_git_ignore ?? true,
    respectGeminiIgnore: options?.respect_gemini_ignore ?? true,
  };
}
