import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

type Env = Readonly<Record<string, string | undefined>>;

/** gemini-cli's env switch that moves the OAuth credentials into the OS keychain / an encrypted file. */
export const FORCE_ENCRYPTED_FILE_ENV_VAR = 'GEMINI_FORCE_ENCRYPTED_FILE_STORAGE';

/** gemini-cli's global folder: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
export function geminiDir(env: Env = process.env): string {
  return join(env['GEMINI_CLI_HOME'] || homedir() || tmpdir(), '.gemini');
}

/** Where gemini-cli caches "Login with Google" credentials: `~/.gemini/oauth_creds.json`. */
export function oauthCredentialsPath(env: Env = process.env): string {
  return join(geminiDir(env), 'oauth_creds.json');
}

/** Where gemini-cli caches the signed-in account's e-mail: `~/.gemini/google_accounts.json`. */
export function googleAccountsPath(env: Env = process.env): string {
  return join(geminiDir(env), 'google_accounts.json');
}

/**
 * The cached OAuth credentials of google-auth-library (`Credentials`): what gemini-cli writes to
 * `oauth_creds.json`. Unknown fields are kept.
 */
export const OAuthCredentialsFile = z.looseObject({
  access_token: z.string().nullish(),
  refresh_token: z.string().nullish(),
  expiry_date: z.number().nullish(),
  token_type: z.string().nullish(),
  scope: z.string().nullish(),
  id_token: z.string().nullish(),
});
/** The cached OAuth credentials (see {@link OAuthCredentialsFile}). */
export type OAuthCredentialsFile = z.infer<typeof OAuthCredentialsFile>;

/** One credentials file found by {@link readCachedCredentials}. */
export interface CachedCredentials {
  /** The file it was read from. */
  file: string;
  /** `oauth` for gemini-cli's `oauth_creds.json`, `adc` for `GOOGLE_APPLICATION_CREDENTIALS`. */
  origin: 'oauth' | 'adc';
  /** The parsed JSON object. */
  json: Record<string, unknown>;
}

/** A file that was there but could not be used, and why (for the error message when nothing works). */
export interface CredentialsProblem {
  file: string;
  reason: string;
}

/**
 * gemini-cli's `fetchCachedCredentialsList()`: `~/.gemini/oauth_creds.json` (unless
 * `GEMINI_FORCE_ENCRYPTED_FILE_STORAGE=true`), then the file at `GOOGLE_APPLICATION_CREDENTIALS`, in that
 * order. Missing files are skipped; unreadable or non-object JSON is reported in `problems`.
 */
export async function readCachedCredentials(
  env: Env = process.env,
): Promise<{ found: CachedCredentials[]; problems: CredentialsProblem[] }> {
  const candidates: Array<{ file: string; origin: CachedCredentials['origin'] }> = [];
  if (env[FORCE_ENCRYPTED_FILE_ENV_VAR] !== 'true') {
    candidates.push({ file: oauthCredentialsPath(env), origin: 'oauth' });
  }
  const adcFile = env['GOOGLE_APPLICATION_CREDENTIALS'];
  if (adcFile) candidates.push({ file: adcFile, origin: 'adc' });
  const found: CachedCredentials[] = [];
  const problems: CredentialsProblem[] = [];
  for (const { file, origin } of candidates) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') problems.push({ file, reason: `cannot be read (${code ?? 'error'})` });
      else if (origin === 'adc') problems.push({ file, reason: 'does not exist' });
      continue;
    }
    try {
      const json: unknown = JSON.parse(text);
      if (typeof json !== 'object' || json === null || Array.isArray(json)) {
        throw new Error('not a JSON object');
      }
      found.push({ file, origin, json: json as Record<string, unknown> });
    } catch (error) {
      problems.push({
        file,
        reason: `is not valid credentials JSON (${(error as Error).message})`,
      });
    }
  }
  return { found, problems };
}

/**
 * Writes OAuth credentials as gemini-cli does (pretty JSON, mode 0600), atomically: a temp file in the same
 * folder, created with mode 0600, then renamed over the target. A refresh token already in the file is kept
 * when `credentials` has none (token refreshes do not return one).
 */
export async function writeOAuthCredentials(file: string, credentials: object): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  let merged = { ...(credentials as OAuthCredentialsFile) };
  if (!merged.refresh_token) {
    const existing = await readOAuthCredentials(file).catch(() => undefined);
    if (existing?.refresh_token) merged = { ...merged, refresh_token: existing.refresh_token };
  }
  const temp = join(dirname(file), `.oauth_creds.${process.pid}.${randomUUID()}.tmp`);
  try {
    await writeFile(temp, JSON.stringify(merged, null, 2), { mode: 0o600 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await chmod(file, 0o600).catch(() => undefined);
}

/** Reads `oauth_creds.json`-shaped credentials; `undefined` when the file does not exist. */
export async function readOAuthCredentials(
  file: string,
): Promise<OAuthCredentialsFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return OAuthCredentialsFile.parse(JSON.parse(text));
}

/** Deletes the cached OAuth credentials and the cached account (gemini-cli's `clearCachedCredentialFile`). */
export async function clearOAuthCredentials(env: Env = process.env): Promise<void> {
  await rm(oauthCredentialsPath(env), { force: true });
  const accounts = await readGoogleAccounts(env);
  if (accounts.active !== null) {
    const old = accounts.old.includes(accounts.active)
      ? accounts.old
      : [...accounts.old, accounts.active];
    await writeGoogleAccounts(env, { active: null, old });
  }
}

/** gemini-cli's `google_accounts.json`: the active account's e-mail and earlier ones. */
export const GoogleAccountsFile = z.object({
  active: z.string().nullable().default(null),
  old: z.array(z.string()).default([]),
});
/** See {@link GoogleAccountsFile}. */
export type GoogleAccountsFile = z.infer<typeof GoogleAccountsFile>;

/** Reads `google_accounts.json`; a missing or invalid file reads as no account (as gemini-cli). */
export async function readGoogleAccounts(env: Env = process.env): Promise<GoogleAccountsFile> {
  try {
    const text = await readFile(googleAccountsPath(env), 'utf8');
    const parsed = GoogleAccountsFile.safeParse(text.trim() === '' ? {} : JSON.parse(text));
    return parsed.success ? parsed.data : { active: null, old: [] };
  } catch {
    return { active: null, old: [] };
  }
}

/** gemini-cli's `cacheGoogleAccount(email)`: makes `email` active, moving the previous one to `old`. */
export async function cacheGoogleAccount(env: Env, email: string): Promise<void> {
  const accounts = await readGoogleAccounts(env);
  if (accounts.active && accounts.active !== email && !accounts.old.includes(accounts.active)) {
    accounts.old.push(accounts.active);
  }
  await writeGoogleAccounts(env, {
    active: email,
    old: accounts.old.filter((o) => o !== email),
  });
}

async function writeGoogleAccounts(env: Env, accounts: GoogleAccountsFile): Promise<void> {
  const file = googleAccountsPath(env);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(accounts, null, 2), 'utf8');
}
