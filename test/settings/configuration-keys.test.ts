import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_SETTINGS, type KnownSettingsTree } from '../../src/settings/known-settings.js';

/**
 * docs/configuration.md's "Keys" section against the code: the honoured table and the ignored list name only
 * gemini-cli's keys, never the same key twice, cover every top-level key, and the honoured table holds every
 * settings key the code reads (and only keys it reads).
 */

const ROOT = join(import.meta.dirname, '..', '..');
const TOP_LEVEL = Object.keys(KNOWN_SETTINGS).filter((k) => k !== '$schema');

function keysSection(): { honoured: string[]; ignoredText: string } {
  const doc = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
  const section = doc.slice(
    doc.indexOf('## Keys\n'),
    doc.indexOf('\n## ', doc.indexOf('## Keys\n') + 1),
  );
  const rows = section.split('\n').filter((l) => l.startsWith('| `'));
  const honoured = rows.flatMap((row) =>
    [...row.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
  );
  const ignoredText = section.slice(section.indexOf('Every other key'));
  return { honoured, ignoredText };
}

/**
 * The backticked keys of the ignored list; `rest` marks the group "the rest of `a.*`, … (the keys of the table
 * excepted)", whose keys the honoured table may also name.
 */
function ignoredKeys(text: string): Array<{ key: string; rest: boolean }> {
  const restStart = text.indexOf('the rest of');
  const restEnd = text.indexOf('(the keys of the table excepted)');
  return [...text.matchAll(/`([^`]+)`/g)]
    .map((m) => ({ key: m[1]!, rest: m.index > restStart && m.index < restEnd }))
    .filter(({ key }) => /^[a-zA-Z$][\w.*<>$]*$/.test(key) && isKeyToken(key));
}

/** Whether a doc token looks like a settings key (not a value such as `"flat"` or a file name). */
function isKeyToken(token: string): boolean {
  return TOP_LEVEL.includes(token.split('.')[0]!.replace(/\*$/, ''));
}

/** Whether `token` (`a.b`, `a.*`, `a.b*`, `map.<name>.x`) names keys of gemini-cli's schema. */
function known(token: string): boolean {
  let node: true | KnownSettingsTree = KNOWN_SETTINGS;
  for (const segment of token.split('.')) {
    if (node === true || segment === '*') return true;
    if (segment.endsWith('*'))
      return Object.keys(node).some((k) => k.startsWith(segment.slice(0, -1)));
    const next: true | KnownSettingsTree | undefined = node[segment];
    if (next === undefined) return false;
    node = next;
  }
  return true;
}

/** Whether an ignored token covers key `path` (`a.*` and `a.b*` cover what starts so). */
function covers(token: string, path: string): boolean {
  if (token === path) return true;
  if (token.endsWith('.*')) return path.startsWith(token.slice(0, -1));
  if (token.endsWith('*')) return path.startsWith(token.slice(0, -1));
  return path.startsWith(`${token}.`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The settings key paths the code reads, in the forms it uses (`merged.a?.b`, `(merged.a as …)?.['b']`, …). */
function keysReadInCode(): Map<string, string> {
  const reads = new Map<string, string>();
  const add = (path: string, file: string): void => {
    if (!reads.has(path)) reads.set(path, file.slice(ROOT.length + 1));
  };
  const top = TOP_LEVEL.join('|');
  const forms = [
    // merged.a?.b?.c, settings.merged.a.b
    new RegExp(`\\bmerged\\??\\.(${top})\\b(?:\\??\\.(\\w+))?(?:\\??\\.(\\w+))?`, 'g'),
    // (merged.a as T)?.['b']
    new RegExp(`\\bmerged\\.(${top}) as [^)]*\\)\\?\\.\\[\\s*'(\\w+)'`, 'g'),
    // (merged as { a?: … }).a?.b
    new RegExp(`\\bmerged as \\{[^)]*\\}\\)\\.(${top})\\??\\.(\\w+)`, 'g'),
    // a?.['b'] on a variable named after a top-level key
    new RegExp(`\\b(${top})\\?\\.\\[\\s*'(\\w+)'`, 'g'),
    // settings.a?.b (a Settings value, as the policy and settings modules name it)
    new RegExp(`\\bsettings\\??\\.(${top})\\b(?:\\??\\.(\\w+))?`, 'g'),
  ];
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    if (file.endsWith('known-settings.ts') || file.endsWith('settings-schema.ts')) continue;
    const text = readFileSync(file, 'utf8');
    for (const form of forms) {
      for (const match of text.matchAll(form)) {
        add(
          match
            .slice(1)
            .filter((s) => s !== undefined)
            .join('.'),
          file,
        );
      }
    }
  }
  return reads;
}

/** Whether a doc key and a key read in the code are the same setting (one may be the other's parent object). */
function related(docKey: string, read: string): boolean {
  const plain = docKey.replace(/\.\*$/, '').replace(/\.<[^>]+>/g, '');
  return plain === read || plain.startsWith(`${read}.`) || read.startsWith(`${plain}.`);
}

describe('docs/configuration.md "Keys" against the code', () => {
  const { honoured, ignoredText } = keysSection();
  const ignored = ignoredKeys(ignoredText);
  const reads = keysReadInCode();

  it('finds both lists and the reads', () => {
    expect(honoured.length).toBeGreaterThan(20);
    expect(ignored.length).toBeGreaterThan(15);
    expect(reads.size).toBeGreaterThan(20);
  });

  it('names only keys of gemini-cli 0.61 settings schema', () => {
    const unknown = [...honoured, ...ignored.map((i) => i.key)].filter((k) => !known(k));
    expect(unknown).toEqual([]);
  });

  it('lists no honoured key as ignored (but in "the rest of …", whose keys the table excepts)', () => {
    const both = honoured.flatMap((key) =>
      ignored
        .filter((i) => !i.rest && covers(i.key, key.replace(/\.<[^>]+>/g, '')))
        .map((i) => `${key} (ignored as ${i.key})`),
    );
    expect(both).toEqual([]);
    // Each of "the rest of" is there because the table names some of its keys.
    const needless = ignored.filter((i) => i.rest && !honoured.some((key) => covers(i.key, key)));
    expect(needless).toEqual([]);
  });

  it('covers every top-level key', () => {
    const all = [...honoured, ...ignored.map((i) => i.key)];
    const missing = TOP_LEVEL.filter(
      (top) => !all.some((k) => k === top || k.startsWith(`${top}.`) || k === `${top}*`),
    );
    expect(missing).toEqual([]);
  });

  it('has every key the code reads in the honoured table', () => {
    const undocumented = [...reads]
      .filter(([read]) => !honoured.some((key) => related(key, read)))
      .map(([read, file]) => `${read} (${file})`);
    expect(undocumented).toEqual([]);
  });

  it('calls honoured only keys the code reads', () => {
    const unread = honoured.filter((key) => ![...reads.keys()].some((read) => related(key, read)));
    expect(unread).toEqual([]);
  });
});
