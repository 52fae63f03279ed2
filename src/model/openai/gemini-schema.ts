/**
 * Gemini's `Schema` (OpenAPI 3.0 subset: `type: 'OBJECT'`, `nullable`, `format`, `enum`, `items`,
 * `properties`, `required`, `anyOf`…) as JSON Schema, for APIs that take JSON Schema (function parameters and
 * response formats of OpenAI-compatible servers).
 */
export function geminiSchemaToJsonSchema(schema: unknown): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null) return {};
  const s = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    switch (key) {
      case 'type': {
        const type = String(value).toLowerCase();
        if (type !== 'type_unspecified') out['type'] = type;
        break;
      }
      case 'nullable':
        break;
      case 'properties':
        out['properties'] = Object.fromEntries(
          Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [
            k,
            geminiSchemaToJsonSchema(v),
          ]),
        );
        break;
      case 'items':
        out['items'] = geminiSchemaToJsonSchema(value);
        break;
      case 'anyOf':
        out['anyOf'] = Array.isArray(value) ? value.map(geminiSchemaToJsonSchema) : value;
        break;
      case 'propertyOrdering':
        break;
      case 'minItems':
      case 'maxItems':
      case 'minLength':
      case 'maxLength':
      case 'minProperties':
      case 'maxProperties':
        out[key] = typeof value === 'string' ? Number(value) : value;
        break;
      default:
        out[key] = value;
    }
  }
  if (s['nullable'] === true && typeof out['type'] === 'string')
    out['type'] = [out['type'], 'null'];
  return out;
}
