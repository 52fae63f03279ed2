import type * as JsYaml from 'js-yaml';
import { lazyRequire } from '../lazy-require.js';

/**
 * Parses a YAML document (a SKILL.md or agent `.md` frontmatter block) with `js-yaml` 4.1.1, the parser and version
 * gemini-cli 0.61 uses for both, so a file gemini accepts parses to the same value here and a file it rejects fails
 * with the same message. `load` uses js-yaml's default schema (YAML 1.2 core types; no `!!js/*` tags). The package is
 * required on the first call rather than when the SDK is imported; `require` keeps the callers synchronous and Node
 * caches the module. Throws js-yaml's `YAMLException` on malformed input.
 */
export function parseYaml(text: string): unknown {
  const yaml = lazyRequire<typeof JsYaml>('js-yaml');
  return yaml.load(text);
}
