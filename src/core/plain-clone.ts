/** Thrown inside {@link plainClone} when a value is not plain JSON-like data: the copy goes to `structuredClone`. */
const NOT_PLAIN: unique symbol = Symbol('not plain');

/** Deeper than this, the copy goes to `structuredClone` (which also handles cycles). */
const MAX_DEPTH = 64;

function copy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') {
    const type = typeof value;
    if (type === 'string' || type === 'number' || type === 'boolean' || type === 'undefined')
      return value;
    throw NOT_PLAIN;
  }
  if (depth > MAX_DEPTH) throw NOT_PLAIN;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw NOT_PLAIN;
    const length = value.length;
    const out = new Array<unknown>(length);
    for (let i = 0; i < length; i++) {
      if (!(i in value)) throw NOT_PLAIN;
      out[i] = copy(value[i], depth + 1);
    }
    if (Object.keys(value).length !== length) throw NOT_PLAIN;
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copy((value as Record<string, unknown>)[key], depth + 1);
    // An own `__proto__` key (JSON.parse makes one from model output) stays a key: `out.__proto__ = …` would set
    // the copy's prototype instead and drop the key.
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = item;
  }
  return out;
}

/**
 * `structuredClone(value)` for the plain data of messages and records (objects with `Object.prototype` or no
 * prototype, dense arrays, strings, numbers, booleans, `undefined`, `null`), at a fraction of its cost: a
 * `structuredClone` of a small part list is ~3 µs of serialization, and every stored model turn and tool result
 * made several. Anything else (a `Date`, typed arrays, `Map`, class instances, bigints, functions, symbols, sparse
 * arrays, very deep nesting, cycles) is copied by `structuredClone` itself, with its result or its error. A
 * null-prototype object is copied to a plain object, as `structuredClone` does.
 */
export function plainClone<T>(value: T): T {
  try {
    return copy(value, 0) as T;
  } catch (error) {
    if (error === NOT_PLAIN) return structuredClone(value);
    throw error;
  }
}
