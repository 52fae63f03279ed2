import { expandEnvVarsInString, type Environment } from '../settings/env-expansion.js';
import { isSecretName, sanitizeEnvironment } from '../settings/env-redaction.js';

/** gemini-cli's `security.environmentVariableRedaction` lists. */
export interface RedactionLists {
  /** Names kept even when they look like secrets (never the always-redacted ones). */
  allowed?: readonly string[];
  /** Names always removed. */
  blocked?: readonly string[];
}

/**
 * gemini-cli's `sanitizeEnvironment` with redaction forced on (as it is for MCP servers): drops variables whose
 * name or value looks like a secret (`*TOKEN*`, `*KEY*`, `AIzaSy…`, private keys, credentials in URLs, …) and the
 * `blocked` list, keeps `PATH`, `HOME`, `GEMINI_CLI_*` and friends. On GitHub Actions (`GITHUB_SHA` set) only the
 * always-allowed variables are kept.
 */
export function redactEnvironment(env: Environment, lists: RedactionLists = {}): Environment {
  // Stricter than gemini-cli: an allow list cannot let a secret-looking name through to a server.
  const allowed = (lists.allowed ?? []).filter((k) => !isSecretName(k));
  const sanitized = sanitizeEnvironment(env, {
    enabled: true,
    allowed,
    blocked: lists.blocked ?? [],
  });
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(sanitized)) {
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * The environment of a stdio server, as gemini-cli builds it: `GEMINI_CLI=1`, the host environment redacted, then
 * the server's own `env` (expanded against the full host environment, never redacted).
 */
export function stdioServerEnv(
  hostEnv: Environment,
  serverEnv: Readonly<Record<string, string>> | undefined,
  lists?: RedactionLists,
): Record<string, string> {
  const out: Record<string, string> = { GEMINI_CLI: '1' };
  for (const [key, value] of Object.entries(redactEnvironment(hostEnv, lists))) {
    if (value !== undefined) out[key] = value;
  }
  for (const [key, value] of Object.entries(serverEnv ?? {})) {
    out[key] = expandEnvVarsInString(value, hostEnv);
  }
  return out;
}

/** A network server's headers, values expanded against the redacted host environment (gemini-cli's rule). */
export function expandHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  hostEnv: Environment,
  lists?: RedactionLists,
): Record<string, string> {
  const env = redactEnvironment(hostEnv, lists);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    out[key] = expandEnvVarsInString(value, env);
  }
  return out;
}
