import { describe, expect, it } from 'vitest';
import { plainClone } from './plain-clone.js';

/** A small deterministic PRNG, so a failure names its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const LEAVES: ReadonlyArray<() => unknown> = [
  () => 'text',
  () => '',
  () => 0,
  () => -0,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => 1.5,
  () => true,
  () => false,
  () => null,
  () => undefined,
];

const EXOTIC: ReadonlyArray<() => unknown> = [
  () => new Date(0),
  () => new Uint8Array([1, 2, 3]),
  () => new Map([['k', 1]]),
  () => new Set([1]),
  () => 10n,
  () => /re/g,
  () =>
    new (class Thing {
      x = 1;
    })(),
  () => {
    const sparse: unknown[] = [1];
    sparse[3] = 2;
    return sparse;
  },
  () => Object.assign([1, 2], { extra: 'prop' }),
  () => new Error('boom'),
];

function randomValue(next: () => number, depth: number, exotic: boolean): unknown {
  const roll = next();
  if (depth > 4 || roll < 0.35) {
    if (exotic && next() < 0.05) return EXOTIC[Math.floor(next() * EXOTIC.length)]?.();
    return LEAVES[Math.floor(next() * LEAVES.length)]?.();
  }
  if (roll < 0.6) {
    return Array.from({ length: Math.floor(next() * 4) }, () =>
      randomValue(next, depth + 1, exotic),
    );
  }
  const out: Record<string, unknown> = next() < 0.1 ? Object.create(null) : {};
  const keys = Math.floor(next() * 4);
  for (let k = 0; k < keys; k++)
    out[`k${Math.floor(next() * 6)}`] = randomValue(next, depth + 1, exotic);
  return out;
}

describe('plainClone', () => {
  it('copies like structuredClone: 5,000 random values, plain and with exotic leaves', () => {
    for (let seed = 0; seed < 5_000; seed++) {
      const value = randomValue(rng(seed), 0, seed % 2 === 1);
      const expected: unknown = structuredClone(value);
      const actual = plainClone(value);
      expect(actual, `seed ${seed}`).toStrictEqual(expected);
      if (value !== null && typeof value === 'object') expect(actual).not.toBe(value);
    }
  });

  it('gives a copy the source does not share', () => {
    const parts = [{ functionCall: { id: 'a', name: 'tick', args: { i: 1, list: [1, 2] } } }];
    const copy = plainClone(parts);
    (copy[0]?.functionCall.args.list as number[]).push(3);
    copy[0]!.functionCall.args.i = 2;
    expect(parts).toStrictEqual([
      { functionCall: { id: 'a', name: 'tick', args: { i: 1, list: [1, 2] } } },
    ]);
  });

  it('keeps exotic values exotic (structuredClone copies them)', () => {
    const value = { when: new Date(5), bytes: new Uint8Array([7]), map: new Map([['a', 1]]) };
    const copy = plainClone(value);
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when.getTime()).toBe(5);
    expect(copy.bytes).toBeInstanceOf(Uint8Array);
    expect(copy.map.get('a')).toBe(1);
  });

  it('copies cycles and very deep nesting through structuredClone', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    const copy = plainClone(cyclic);
    expect(copy['self']).toBe(copy);
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 200; i++) {
      const child = {};
      deep['c'] = child;
      deep = child;
    }
    expect(plainClone(root)).toStrictEqual(structuredClone(root));
  });

  it('throws what structuredClone throws for a function or a symbol', () => {
    const message = (fn: () => unknown): string => {
      try {
        fn();
      } catch (error) {
        return (error as Error).name;
      }
      return 'no error';
    };
    for (const bad of [{ f: () => 1 }, [Symbol('s')], { nested: { s: Symbol('t') } }]) {
      expect(message(() => plainClone(bad))).toBe(message(() => structuredClone(bad)));
      expect(message(() => plainClone(bad))).toBe('DataCloneError');
    }
  });

  it('keeps an own __proto__ key (from JSON.parse of model output) as a key, not the prototype', () => {
    const source = JSON.parse('{"args":{"__proto__":{"isAdmin":true},"path":"a"}}') as {
      args: Record<string, unknown>;
    };
    const copied = plainClone(source);
    expect(copied).toStrictEqual(structuredClone(source));
    expect(JSON.stringify(copied)).toBe(JSON.stringify(source));
    expect(Object.getPrototypeOf(copied.args)).toBe(Object.prototype);
    expect((copied.args as { isAdmin?: unknown }).isAdmin).toBeUndefined();
  });
});
