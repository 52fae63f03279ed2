/**
 * gemini-cli's input-schema transform for Gemini: every `type: [X, 'null']` (in either order, exactly two
 * entries, X a string) becomes `type: X, nullable: true`, recursively. Returns a new value; the input is unchanged.
 */
export function transformInputSchema(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(transformInputSchema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    Object.defineProperty(out, key, {
      value: transformInputSchema(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const type = out['type'];
  if (Array.isArray(type) && type.length === 2) {
    const nullAt = type.indexOf('null');
    const other: unknown = type[1 - nullAt];
    if (nullAt !== -1 && typeof other === 'string') {
      out['type'] = other;
      out['nullable'] = true;
    }
  }
  return out;
}

/** The schema gemini-cli declares for a tool without one. */
export const EMPTY_OBJECT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: 'object',
  properties: {},
});
