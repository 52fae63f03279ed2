// gemini-cli 0.61's encrypted file keychain (packages/core/src/services/fileKeychain.ts), read and written with
// node:crypto: the store gemini-cli uses for extension secrets when no OS keychain works or
// GEMINI_FORCE_FILE_STORAGE=true.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { ConfigurationError } from '../errors.js';

/** `service → account → password`, the decrypted content of the file. */
export type KeychainData = Record<string, Record<string, string>>;

/** The file's name inside `~/.gemini`. */
export const KEYCHAIN_FILE_NAME = 'gemini-credentials.json';

/** gemini-cli's prefix of the account that holds a secret (`KeychainTokenStorage.setSecret`). */
export const KEYCHAIN_SECRET_PREFIX = '__secret__';

/** The file that cannot be read or decrypted; `code` `KEYCHAIN_FILE_CORRUPT`, gemini-cli's text. */
export class KeychainFileError extends ConfigurationError {
  constructor(
    readonly file: string,
    options: { cause?: unknown } = {},
  ) {
    super(
      `Corrupted credentials file detected at: ${file}\nPlease delete or rename this file to resolve the issue.`,
      { ...options, code: 'KEYCHAIN_FILE_CORRUPT' },
    );
  }
}

/** `<geminiDir>/gemini-credentials.json` (`geminiDir` is `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`). */
export function keychainFile(geminiDir: string): string {
  return join(geminiDir, KEYCHAIN_FILE_NAME);
}

const keys = new Map<string, Buffer>();

/** scrypt('gemini-cli-oauth', `<hostname>-<username>-gemini-cli`, 32): the file opens only on that host, as that user. */
function encryptionKey(): Buffer {
  const salt = `${hostname()}-${userInfo().username}-gemini-cli`;
  let key = keys.get(salt);
  if (!key) {
    key = scryptSync('gemini-cli-oauth', salt, 32);
    keys.set(salt, key);
  }
  return key;
}

/** `iv:authTag:cipher` in hex, AES-256-GCM with a 12-byte random iv, as gemini-cli writes it. */
export function encryptKeychain(text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv, { authTagLength: 16 });
  const encrypted = cipher.update(text, 'utf8', 'hex') + cipher.final('hex');
  return `${iv.toString('hex')}:${cipher.getAuthTag().toString('hex')}:${encrypted}`;
}

/** The plain text of `iv:authTag:cipher` (a 12- or 16-byte iv). @throws Error when the format or the tag is wrong. */
export function decryptKeychain(content: string): string {
  const parts = content.split(':');
  if (parts.length !== 3) throw new Error('Invalid encrypted data format');
  const [ivHex, tagHex, encrypted] = parts as [string, string, string];
  const iv = Buffer.from(ivHex, 'hex');
  const tag = Buffer.from(tagHex, 'hex');
  if (iv.length !== 12 && iv.length !== 16)
    throw new Error('Invalid IV length: Must be 12 or 16 bytes');
  if (tag.length !== 16) throw new Error('Invalid authentication tag length: Must be 16 bytes');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(), iv, { authTagLength: 16 });
  decipher.setAuthTag(tag);
  return decipher.update(encrypted, 'hex', 'utf8') + decipher.final('utf8');
}

function isKeychainData(value: unknown): value is KeychainData {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every(
    (accounts) =>
      typeof accounts === 'object' &&
      accounts !== null &&
      !Array.isArray(accounts) &&
      Object.values(accounts).every((p) => typeof p === 'string'),
  );
}

/**
 * The decrypted file; `{}` when it does not exist.
 *
 * @throws KeychainFileError when it cannot be read, decrypted (another host or user, a changed file) or parsed.
 */
export function readKeychainFile(file: string): KeychainData {
  if (!existsSync(file)) return {};
  try {
    const data: unknown = JSON.parse(decryptKeychain(readFileSync(file, 'utf8')));
    if (!isKeychainData(data)) throw new Error('not a { service: { account: password } } object');
    return data;
  } catch (error) {
    throw new KeychainFileError(file, { cause: error });
  }
}

/**
 * Writes `data` as gemini-cli does (pretty JSON, encrypted, mode 0600, its folder 0700); an empty `data` removes
 * the file, as gemini-cli does when the last secret is deleted.
 */
export function writeKeychainFile(file: string, data: KeychainData): void {
  if (Object.keys(data).length === 0) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, encryptKeychain(JSON.stringify(data, null, 2)), { mode: 0o600 });
  renameSync(temp, file);
}

/**
 * Sets (or with `undefined` deletes) one password, keeping the rest of the file.
 *
 * @throws KeychainFileError when the existing file cannot be read: it is left as it is.
 */
export function setKeychainPassword(
  file: string,
  service: string,
  account: string,
  password: string | undefined,
): void {
  const data = readKeychainFile(file);
  if (password === undefined) {
    const accounts = data[service];
    if (!accounts || !(account in accounts)) return;
    delete accounts[account];
    if (Object.keys(accounts).length === 0) delete data[service];
  } else {
    data[service] = { ...data[service], [account]: password };
  }
  writeKeychainFile(file, data);
}

/**
 * gemini-cli's keychain service of an extension's settings: `Gemini CLI Extensions <name> <id>`, followed by
 * ` <workspaceDir>` for the workspace scope.
 */
export function extensionKeychainService(name: string, id: string, workspaceDir?: string): string {
  const base = `Gemini CLI Extensions ${name} ${id}`;
  return workspaceDir === undefined ? base : `${base} ${workspaceDir}`;
}
