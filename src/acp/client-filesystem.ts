import os from 'node:os';
import path from 'node:path';
import { methods, type AgentConnection } from '@agentclientprotocol/sdk';
import type { Logger } from '../logger.js';
import { detectFileType } from '../tools/builtin/file-types.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';

/** What {@link clientFilesystem} needs. */
export interface ClientFilesystemOptions {
  sessionId(): string;
  connection(): AgentConnection | undefined;
  /** The client advertised `fs.readTextFile` / `fs.writeTextFile`. */
  read: boolean;
  write: boolean;
  logger: Logger;
}

function isWithin(child: string, root: string): boolean {
  const relative = path.relative(root, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function geminiDir(): string {
  return path.join(process.env['GEMINI_CLI_HOME'] || os.homedir(), '.gemini');
}

function notFound(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /resource not found|ENOENT|does not exist|no such file|not found/i.test(message);
}

/**
 * The session's filesystem with text reads and writes inside its cwd going through the editor
 * (`fs/read_text_file`, `fs/write_text_file`), so the editor's unsaved buffers win and its undo history sees the
 * agent's edits — as gemini-cli's `AcpFileSystemService`. Every path passes the workspace check first (a refused
 * path never reaches the editor); paths outside the cwd, in `~/.gemini`, binary files and everything but text
 * reads and writes use the local filesystem.
 */
export function clientFilesystem(
  base: SandboxFilesystem,
  options: ClientFilesystemOptions,
): SandboxFilesystem {
  const root = (): string => base.workspaceDirectories()[0] ?? '';
  const viaClient = (absolute: string): boolean =>
    isWithin(absolute, root()) && !isWithin(absolute, geminiDir());

  const readText = async (absolute: string): Promise<string | null | undefined> => {
    const connection = options.connection();
    if (connection === undefined || connection.signal.aborted) return undefined;
    try {
      const response: unknown = await connection.client.request(methods.client.fs.readTextFile, {
        sessionId: options.sessionId(),
        path: absolute,
      });
      const content = (response as { content?: unknown } | null)?.content;
      if (typeof content === 'string') return content;
      options.logger.warn('fs/read_text_file answered without a string content; reading the disk', {
        path: absolute,
      });
      return undefined;
    } catch (error) {
      if (notFound(error)) return null;
      options.logger.debug('fs/read_text_file failed; reading the disk', {
        path: absolute,
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  };

  const overrides: Partial<SandboxFilesystem> = {};

  if (options.read) {
    overrides.readFile = async (file) => {
      let absolute: string;
      try {
        absolute = await base.resolvePath(file, 'read');
      } catch {
        return null;
      }
      if (!viaClient(absolute)) return base.readFile(absolute);
      const text = await readText(absolute);
      return text === undefined ? base.readFile(absolute) : text;
    };
    overrides.readFileBytes = async (file) => {
      const bytes = await base.readFileBytes(file);
      if (bytes === null) return null;
      const absolute = await base.resolvePath(file, 'read').catch(() => undefined);
      if (absolute === undefined || !viaClient(absolute)) return bytes;
      const type = detectFileType(absolute, bytes);
      if (type !== 'text' && type !== 'svg') return bytes;
      const text = await readText(absolute);
      return typeof text === 'string' ? new TextEncoder().encode(text) : bytes;
    };
  }
  if (options.write) {
    overrides.writeFile = async (file, content) => {
      const absolute = await base.resolvePath(file, 'write');
      const connection = options.connection();
      if (!viaClient(absolute) || connection === undefined || connection.signal.aborted) {
        return base.writeFile(absolute, content);
      }
      await base.mkdir(path.dirname(absolute), { recursive: true });
      await connection.client.request(methods.client.fs.writeTextFile, {
        sessionId: options.sessionId(),
        path: absolute,
        content,
      });
    };
  }
  return withOverrides(base, overrides);
}

/**
 * `base` with some methods replaced; every other member (including ones added to the interface later) is the
 * base's own, bound to it.
 */
export function withOverrides<T extends object>(base: T, overrides: Partial<T>): T {
  return new Proxy(base, {
    get(target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
