import { expandEnvVarsInString, type Environment } from '../settings/env-expansion.js';

/** Variables a redacted environment always keeps (gemini-cli's `ALWAYS_ALLOWED_ENVIRONMENT_VARIABLES`). */
const ALWAYS_ALLOWED = new Set([
  'PATH',
  'SYSTEMROOT',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'SYSTEMDRIVE',
  'HOME',
  'LANG',
  'SHELL',
  'TMPDIR',
  'USER',
  'LOGNAME',
  'TERM',
  'COLORTERM',
  'ADDITIONAL_CONTEXT',
  'AVAILABLE_LABELS',
  'BRANCH_NAME',
  'DESCRIPTION',
  'EVENT_NAME',
  'GITHUB_ENV',
  'IS_PULL_REQUEST',
  'ISSUES_TO_TRIAGE',
  'ISSUE_BODY',
  'ISSUE_NUMBER',
  'ISSUE_TITLE',
  'PULL_REQUEST_NUMBER',
  'REPOSITORY',
  'TITLE',
  'TRIGGERING_ACTOR',
]);

/** Variables always redacted (gemini-cli's `NEVER_ALLOWED_ENVIRONMENT_VARIABLES`). */
const NEVER_ALLOWED = new Set([
  'CLIENT_ID',
  'DB_URI',
  'CONNECTION_STRING',
  'AWS_DEFAULT_REGION',
  'AZURE_CLIENT_ID',
  'AZURE_TENANT_ID',
  'SLACK_WEBHOOK_URL',
  'TWILIO_ACCOUNT_SID',
  'DATABASE_URL',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_ACCOUNT',
  'FIREBASE_PROJECT_ID',
]);

/** Names that look like secrets (gemini-cli's `NEVER_ALLOWED_NAME_PATTERNS`). */
const SECRET_NAMES = [
  /TOKEN/i,
  /SECRET/i,
  /PASSWORD/i,
  /PASSWD/i,
  /KEY/i,
  /AUTH/i,
  /CREDENTIAL/i,
  /CREDS/i,
  /PRIVATE/i,
  /CERT/i,
];

/** Values that look like secrets (gemini-cli's `NEVER_ALLOWED_VALUE_PATTERNS`). */
const SECRET_VALUES = [
  /-----BEGIN (RSA|OPENSSH|EC|PGP) PRIVATE KEY-----/i,
  /-----BEGIN CERTIFICATE-----/i,
  /(https?|ftp|smtp):\/\/[^:\s]{1,1024}:[^@\s]{1,1024}@/i,
  /(ghp|gho|ghu|ghs|ghr|github_pat)_[a-zA-Z0-9_]{36,}/i,
  /AIzaSy[a-zA-Z0-9_\\-]{33}/i,
  /AKIA[A-Z0-9]{16}/i,
  /eyJ[a-zA-Z0-9_-]{0,10240}\.[a-zA-Z0-9_-]{0,10240}\.[a-zA-Z0-9_-]{0,10240}/i,
  /(s|r)k_(live|test)_[0-9a-zA-Z]{24}/i,
  /xox[abpr]-[a-zA-Z0-9-]+/i,
];

/** gemini-cli's `security.environmentVariableRedaction` lists. */
export interface RedactionLists {
  /** Names kept even when they look like secrets (never the always-redacted ones). */
  allowed?: readonly string[];
  /** Names always removed. */
  blocked?: readonly string[];
}

function isRedacted(
  key: string,
  value: string | undefined,
  allowed: ReadonlySet<string>,
  blocked: ReadonlySet<string>,
  strict: boolean,
): boolean {
  const name = key.toUpperCase();
  if (name.startsWith('GEMINI_CLI_')) return false;
  const upperValue = value?.toUpperCase();
  if (upperValue && SECRET_VALUES.some((pattern) => pattern.test(upperValue))) return true;
  if (name.startsWith('GIT_CONFIG_')) return false;
  if (allowed.has(name)) return false;
  if (blocked.has(name)) return true;
  if (ALWAYS_ALLOWED.has(name)) return false;
  if (NEVER_ALLOWED.has(name)) return true;
  if (strict) return true;
  return SECRET_NAMES.some((pattern) => pattern.test(name));
}

/**
 * gemini-cli's `sanitizeEnvironment` with redaction forced on (as it is for MCP servers): drops variables whose
 * name or value looks like a secret (`*TOKEN*`, `*KEY*`, `AIzaSy…`, private keys, credentials in URLs, …) and the
 * `blocked` list, keeps `PATH`, `HOME`, `GEMINI_CLI_*` and friends. On GitHub Actions (`GITHUB_SHA` set) only the
 * always-allowed variables are kept.
 */
export function redactEnvironment(env: Environment, lists: RedactionLists = {}): Environment {
  const strict = env['GITHUB_SHA'] !== undefined || env['SURFACE'] === 'Github';
  const allowed = new Set(
    (lists.allowed ?? [])
      .map((k) => k.toUpperCase())
      .filter((k) => !NEVER_ALLOWED.has(k) && !SECRET_NAMES.some((p) => p.test(k))),
  );
  const blocked = new Set((lists.blocked ?? []).map((k) => k.toUpperCase()));
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!isRedacted(key, value, allowed, blocked, strict)) out[key] = value;
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
