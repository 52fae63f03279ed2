import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expandEnvVars, expandEnvVarsInString } from './env-expansion.js';
import { parseJsonc } from './jsonc.js';
import { KNOWN_SETTINGS, type KnownSettingsTree } from './known-settings.js';
import { mergeSettingsLayers, mergeStrategyFor } from './merge-settings.js';
import { SettingsFileError } from './settings-errors.js';

describe('parseJsonc', () => {
  it('parses JSON with line and block comments and reports value lines', () => {
    const text =
      '{\n  // the model\n  "model": { "name": "x" /* inline */ },\n  "a//b": "c/*d*/"\n}\n';
    const doc = parseJsonc(text, 'f.json');
    expect(doc.value).toEqual({ model: { name: 'x' }, 'a//b': 'c/*d*/' });
    expect(doc.lineOf(['model', 'name'])).toBe(3);
    expect(doc.lineOf(['a//b'])).toBe(4);
    expect(doc.lineOf([])).toBe(1);
    expect(doc.lineOf(['model'])).toBe(3);
    expect(doc.lineOf(['model', 'other'])).toBeUndefined();
    expect(doc.lineOf(['a//b', 'deeper'])).toBeUndefined();
  });

  it('reports the line of list items, nested values and the last of duplicate keys', () => {
    const text = '{\n"a": [\n  1,\n  {"b": [\n    true]}\n],\n"d": 1,\n"d": {\n"e": 2}\n}';
    const doc = parseJsonc(text, 'f.json');
    expect(doc.lineOf(['a'])).toBe(2);
    expect(doc.lineOf(['a', 0])).toBe(3);
    expect(doc.lineOf(['a', 1])).toBe(4);
    expect(doc.lineOf(['a', 1, 'b', 0])).toBe(5);
    expect(doc.lineOf(['a', 2])).toBeUndefined();
    expect(doc.lineOf(['d'])).toBe(8);
    expect(doc.lineOf(['d', 'e'])).toBe(9);
    const replaced = parseJsonc('{"x": {"y": 1},\n"x": 2}', 'f.json');
    expect(replaced.lineOf(['x'])).toBe(2);
    expect(replaced.lineOf(['x', 'y'])).toBeUndefined();
  });

  it.each([
    ['{\n  "a": 1,\n}', 3, 'trailing comma'],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 'expected "," or "}"'],
    ["{'a': 1}", 1, 'double quotes'],
    ['{\n"a": [1, 2,]\n}', 2, 'trailing comma before "]"'],
    ['{"a": "open\n}', 1, 'unterminated string'],
    ['', 1, 'empty'],
    ['{} {}', 1, 'after the end'],
    ['{"a": 1} /* never closed', 1, 'unterminated /*'],
  ])('rejects %j with the file, line %i and the reason', (text, line, reason) => {
    let error: unknown;
    try {
      parseJsonc(text, '/x/settings.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsFileError);
    const e = error as SettingsFileError;
    expect(e.file).toBe('/x/settings.json');
    expect(e.line).toBe(line);
    expect(e.message).toContain(`/x/settings.json at line ${line}`);
    expect(e.message).toContain(reason);
    expect(e.code).toBe('SETTINGS_FILE');
  });

  it('keeps __proto__ as a plain key without touching prototypes', () => {
    const doc = parseJsonc('{"__proto__": {"polluted": true}}', 'f');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(doc.value as object)).toEqual(['__proto__']);
  });

  it('ignores a BOM and accepts every JSON scalar', () => {
    expect(parseJsonc('\ufeff{"a": [true, false, null, -1.5e3, "\\u00e9"]}', 'f').value).toEqual({
      a: [true, false, null, -1500, 'é'],
    });
  });
});

describe('environment expansion', () => {
  const env = { HOME_DIR: '/home/u', EMPTY: '', MODEL: 'gemini-2.5-flash' };
  it('expands $VAR, ${VAR} and ${VAR:-default}; unknown variables stay as written', () => {
    expect(expandEnvVarsInString('$HOME_DIR/x ${MODEL}', env)).toBe('/home/u/x gemini-2.5-flash');
    expect(expandEnvVarsInString('${MISSING:-fallback} $MISSING ${MISSING}', env)).toBe(
      'fallback $MISSING ${MISSING}',
    );
    expect(expandEnvVarsInString('[${EMPTY:-d}]', env)).toBe('[]');
  });

  it('keeps strings without a reference as they are, whether or not they hold a $', () => {
    for (const text of [
      '',
      'plain',
      'git log -n 5',
      'é ✓ \u0000',
      '$',
      'a$',
      '$$',
      '${',
      '${}',
      '$-x',
      'x${ MODEL',
    ]) {
      expect(expandEnvVarsInString(text, env)).toBe(text);
    }
    expect(expandEnvVarsInString('$$MODEL', env)).toBe('$gemini-2.5-flash');
  });

  it('walks objects and arrays, leaving keys and non-strings alone', () => {
    expect(expandEnvVars({ $MODEL: ['$MODEL', 3, true, null, { k: '${MODEL}' }] }, env)).toEqual({
      $MODEL: ['gemini-2.5-flash', 3, true, null, { k: 'gemini-2.5-flash' }],
    });
  });
});

describe('merge strategies', () => {
  it('unions, concatenates, shallow-merges and deep-merges as gemini-cli', () => {
    const merged = mergeSettingsLayers<Record<string, unknown>>(
      {
        tools: { exclude: ['a', 'b'], core: ['x'] },
        context: { includeDirectories: ['/a'] },
        mcpServers: { one: { command: 'a', args: ['1'] }, two: { command: 'b' } },
        hooks: { BeforeTool: [{ matcher: 'a' }] },
        model: { name: 'm1', maxSessionTurns: 3 },
      },
      {
        tools: { exclude: ['b', 'c'], core: ['y'] },
        context: { includeDirectories: ['/a', '/b'] },
        mcpServers: { one: { command: 'c' } },
        hooks: { BeforeTool: [{ matcher: 'b' }], CustomEvent: [{ matcher: 'c' }] },
        model: { name: 'm2' },
      },
    );
    expect(merged).toEqual({
      tools: { exclude: ['a', 'b', 'c'], core: ['y'] },
      context: { includeDirectories: ['/a', '/a', '/b'] },
      mcpServers: { one: { command: 'c' }, two: { command: 'b' } },
      hooks: { BeforeTool: [{ matcher: 'a' }, { matcher: 'b' }], CustomEvent: [{ matcher: 'c' }] },
      model: { name: 'm2', maxSessionTurns: 3 },
    });
  });

  it('never lets __proto__ reach the result', () => {
    const layer = JSON.parse('{"__proto__": {"polluted": 1}, "model": {"name": "m"}}') as object;
    const merged = mergeSettingsLayers<Record<string, unknown>>(layer);
    expect(merged).toEqual({ model: { name: 'm' } });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

interface RecordedKey {
  path: string;
  hasProperties?: boolean;
  mergeStrategy?: string;
  additionalMergeStrategy?: string;
}

const recorded = JSON.parse(
  readFileSync(
    new URL('../../test/fixtures/gemini-0.61/settings-schema.json', import.meta.url),
    'utf8',
  ),
) as { entries: RecordedKey[] };

describe('against gemini 0.61 settings schema (recorded)', () => {
  it('knows exactly the recorded key paths', () => {
    const ours: string[] = [];
    const walk = (node: KnownSettingsTree, prefix: string): void => {
      for (const [key, child] of Object.entries(node)) {
        const path = prefix === '' ? key : `${prefix}.${key}`;
        if (path !== '$schema') ours.push(path);
        if (child !== true) walk(child, path);
      }
    };
    walk(KNOWN_SETTINGS, '');
    expect(ours.sort()).toEqual(recorded.entries.map((e) => e.path).sort());
  });

  it('merges each key with the recorded strategy', () => {
    for (const entry of recorded.entries) {
      const expected = entry.mergeStrategy === 'replace' ? undefined : entry.mergeStrategy;
      expect([entry.path, mergeStrategyFor(entry.path.split('.'))]).toEqual([entry.path, expected]);
    }
  });
});
