/**
 * gemini-cli's `sanitizeEnvironment`: the one place that decides which host variables a child process (a command
 * hook, an MCP stdio server) inherits. Redaction is off unless enabled, or the process runs in GitHub Actions
 * (`GITHUB_SHA`, or `SURFACE=Github`), where every variable not known to be safe is dropped.
 */

/** `security.environmentVariableRedaction` of the settings. */
export interface EnvRedactionSettings {
  enabled?: boolean;
  /** Names always kept. */
  allowed?: readonly string[];
  /** Names always dropped. */
  blocked?: readonly string[];
}

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

/** Names that look like secrets (gemini-cli's `NEVER_ALLOWED_NAME_PATTERNS`, as one pattern). */
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CREDS|PRIVATE|CERT/i;

/** Values that look like secrets (gemini-cli's `NEVER_ALLOWED_VALUE_PATTERNS`; bounded quantifiers). */
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

/** True when a variable name is always redacted or looks like a secret. */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return NEVER_ALLOWED.has(upper) || SECRET_NAME.test(upper);
}

function redacted(
  key: string,
  value: string | undefined,
  allowed: ReadonlySet<string>,
  blocked: ReadonlySet<string>,
  strict: boolean,
): boolean {
  const name = key.toUpperCase();
  if (name.startsWith('GEMINI_CLI_')) return false;
  if (value !== undefined && SECRET_VALUES.some((p) => p.test(value))) return true;
  if (name.startsWith('GIT_CONFIG_')) return false;
  if (allowed.has(name)) return false;
  if (blocked.has(name)) return true;
  if (ALWAYS_ALLOWED.has(name)) return false;
  if (NEVER_ALLOWED.has(name)) return true;
  if (strict) return true;
  return SECRET_NAME.test(name);
}

/** A copy of `env`, redacted as gemini-cli's `sanitizeEnvironment` does when redaction applies. */
export function sanitizeEnvironment(
  env: NodeJS.ProcessEnv,
  settings: EnvRedactionSettings = {},
): NodeJS.ProcessEnv {
  const strict = Boolean(env['GITHUB_SHA']) || env['SURFACE'] === 'Github';
  if (!settings.enabled && !strict) return { ...env };
  const allowed = new Set((settings.allowed ?? []).map((k) => k.toUpperCase()));
  const blocked = new Set((settings.blocked ?? []).map((k) => k.toUpperCase()));
  const result: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (!redacted(key, value, allowed, blocked, strict)) result[key] = value;
  }
  return result;
}
