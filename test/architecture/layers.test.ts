import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayers, importGraph, importsOf, type Layer } from '../../scripts/check-layers.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

const TOY: Layer[] = [
  { name: 'core', members: ['core/'] },
  { name: 'services', members: ['tools/', 'sessions/'] },
  { name: 'agent', members: ['agent/'] },
];

describe('layers', () => {
  it('src/ has no import cycle and no upward or sideways import (type imports counted)', () => {
    expect(checkLayers(importGraph(SRC))).toEqual([]);
  });

  it('reads static, type-only, re-export and dynamic imports alike', () => {
    const source = [
      "import type { A } from '../core/a.js';",
      "export { b } from './b.js';",
      "import {\n  c,\n  type C,\n} from '../sessions/c.js';",
      "const d = await import('../agent/d.js');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importsOf('tools/x.ts', source).sort()).toEqual([
      'agent/d.ts',
      'core/a.ts',
      'sessions/c.ts',
      'tools/b.ts',
    ]);
  });

  it('fails on a cycle made of type imports only', () => {
    const graph = new Map([
      ['core/a.ts', ['core/b.ts']],
      ['core/b.ts', ['core/a.ts']],
    ]);
    expect(checkLayers(graph, TOY)).toEqual([
      'Import cycle (type imports count) between 2 files: src/core/a.ts, src/core/b.ts.',
    ]);
  });

  it('fails on an upward import, a sideways import between peers, and a file in no layer', () => {
    const graph = new Map([
      ['core/a.ts', ['agent/x.ts']],
      ['tools/t.ts', ['sessions/s.ts', 'core/a.ts']],
      ['sessions/s.ts', []],
      ['agent/x.ts', ['sessions/s.ts']],
      ['mcp/m.ts', []],
    ]);
    const problems = checkLayers(graph, TOY);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /^src\/core\/a\.ts imports src\/agent\/x\.ts: core .* must not import/,
    );
    expect(problems[1]).toMatch(/^src\/mcp\/m\.ts is in no layer/);
    expect(problems[2]).toMatch(/tools\/ and sessions\/ are peers in the services layer/);
  });
});
