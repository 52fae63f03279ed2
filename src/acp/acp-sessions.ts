import { randomUUID } from 'node:crypto';
import type {
  ListSessionsResponse,
  LoadSessionRequest,
  McpServer,
  NewSessionRequest,
  ResumeSessionRequest,
  SessionInfo,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { GeminiCliAgent } from '../agent/agent.js';
import type { GeminiCliSession } from '../agent/session.js';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import { invalidParams, sessionNotFound, toRequestError } from './acp-errors.js';
import { AcpSession } from './acp-session.js';
import type { ResolvedAcpServerOptions } from './acp-server-options.js';
import {
  checkDirectory,
  type AcpAuth,
  type AgentFactory,
  type SessionAgentHooks,
} from './agent-factory.js';
import { availableCommands } from './commands.js';
import { clientMcpServers } from './mcp-servers.js';
import type { TurnHost } from './prompt-turn.js';
import { ToolCatalog } from './tool-display.js';

/** Sessions listed per `session/list` page. */
export const LIST_PAGE_SIZE = 50;

/** What the registry needs from its connection. */
export interface SessionRegistryHost {
  factory: AgentFactory;
  options: ResolvedAcpServerOptions;
  /** `name version` for `/about`. */
  about: string;
  auth(): AcpAuth;
  /** Sends a `session/update` for a session (never throws). */
  send(sessionId: string, update: SessionUpdate): Promise<void>;
  requestPermission: TurnHost['requestPermission'];
  /** The per-session hooks: `ctx.shell` approvals, the filesystem wrapper, the shell tool. */
  hooks(sessionId: () => string): Omit<SessionAgentHooks, 'mcpServers' | 'filesystem'> & {
    filesystem: (base: SandboxFilesystem) => SandboxFilesystem;
  };
}

interface Opened {
  session: GeminiCliSession;
  fs: SandboxFilesystem;
  cwd: string;
}

/** The sessions of one ACP connection: create, load, resume, close, list and delete them. */
export class SessionRegistry {
  private readonly sessions = new Map<string, AcpSession>();
  private readonly catalog: ToolCatalog;
  /** The project folder of each session seen (opened or listed), for `session/delete`. */
  private readonly cwds = new Map<string, string>();

  constructor(private readonly host: SessionRegistryHost) {
    this.catalog = new ToolCatalog(host.factory.customTools);
  }

  /** The active session `id`, or `-32002`. */
  get(sessionId: string): AcpSession {
    const session = this.sessions.get(sessionId);
    if (!session) {
      throw sessionNotFound(
        sessionId,
        'is not active on this connection: create it with session/new, or open it with session/load or session/resume.',
      );
    }
    return session;
  }

  /** `session/new`. */
  async create(params: NewSessionRequest): Promise<AcpSession> {
    return this.open(params, undefined, false);
  }

  /** `session/load` (replays the history before it returns) and `session/resume`. */
  async reopen(
    params: LoadSessionRequest | ResumeSessionRequest,
    replay: boolean,
  ): Promise<AcpSession> {
    const existing = this.sessions.get(params.sessionId);
    if (existing) {
      this.sessions.delete(params.sessionId);
      await existing.close(this.host.options.shutdownGraceMs);
    }
    const session = await this.open(params, params.sessionId, replay);
    return session;
  }

  private async open(
    params: { cwd: string; additionalDirectories?: string[]; mcpServers?: McpServer[] },
    resumeId: string | undefined,
    replay: boolean,
  ): Promise<AcpSession> {
    const cwd = checkDirectory(params.cwd, 'cwd');
    const extra = (params.additionalDirectories ?? []).map((d) =>
      checkDirectory(d, 'additionalDirectories entry'),
    );
    const mcpServers = clientMcpServers(params.mcpServers, cwd);
    // The id is fixed before the session opens: the editor's filesystem may be asked while it initializes.
    const id = resumeId ?? randomUUID();
    const hooks = this.host.hooks(() => id);
    let fs: SandboxFilesystem | undefined;
    const agent = this.host.factory.forSession(cwd, extra, this.host.auth(), {
      ...hooks,
      mcpServers,
      filesystem: (base) => (fs = hooks.filesystem(base)),
    });
    const opened = await this.openSdkSession(agent, id, resumeId !== undefined, () => fs, cwd);
    const acp = new AcpSession(
      {
        session: opened.session,
        agent,
        cwd: opened.cwd,
        catalog: this.catalog,
        fs: opened.fs,
        models: this.host.options.models,
        alwaysAllow: this.host.options.alwaysAllow,
        logger: this.host.options.logger,
        about: this.host.about,
        send: (update) => this.host.send(id, update),
        requestPermission: this.host.requestPermission,
      },
      resumeId === undefined,
    );
    this.sessions.set(id, acp);
    this.cwds.set(id, cwd);
    if (replay) await acp.replay();
    // After the response has been written: the commands belong to a session the client knows.
    setImmediate(() => {
      if (this.sessions.get(id) === acp) {
        void this.host.send(id, {
          sessionUpdate: 'available_commands_update',
          availableCommands: availableCommands(),
        });
      }
    });
    return acp;
  }

  private async openSdkSession(
    agent: GeminiCliAgent,
    sessionId: string,
    resume: boolean,
    fs: () => SandboxFilesystem | undefined,
    cwd: string,
  ): Promise<Opened> {
    let session: GeminiCliSession | undefined;
    try {
      session = resume ? await agent.resumeSession(sessionId) : agent.session({ sessionId });
      await session.initialize();
      const opened = fs();
      if (opened === undefined)
        throw new Error('the session opened without a workspace filesystem');
      return { session, fs: opened, cwd: opened.workspaceDirectories()[0] ?? cwd };
    } catch (error) {
      await session?.close().catch(() => undefined);
      await agent.close().catch(() => undefined);
      throw toRequestError(error);
    }
  }

  /** `session/close`: cancels its turn and releases it. Unknown ids are `-32002` (clients treat that as done). */
  async close(sessionId: string): Promise<void> {
    const session = this.get(sessionId);
    this.sessions.delete(sessionId);
    await session.close(this.host.options.shutdownGraceMs);
  }

  /** Closes every session (the connection is going away). */
  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.close(this.host.options.shutdownGraceMs)));
  }

  /** `session/list`: the project's sessions, most recently updated first, in pages. */
  async list(
    cwd: string | null | undefined,
    cursor: string | null | undefined,
  ): Promise<ListSessionsResponse> {
    const dir =
      cwd === undefined || cwd === null ? this.host.factory.defaultCwd : checkDirectory(cwd, 'cwd');
    const offset = decodeCursor(cursor);
    let summaries;
    try {
      summaries = await this.host.factory.forProject(dir, this.host.auth()).listSessions();
    } catch (error) {
      throw toRequestError(error);
    }
    summaries.sort((a, b) => b.lastUpdated.localeCompare(a.lastUpdated));
    const page = summaries.slice(offset, offset + LIST_PAGE_SIZE);
    const sessions: SessionInfo[] = page.map((s) => {
      this.cwds.set(s.sessionId, dir);
      const title = s.summary ?? s.firstPrompt;
      return {
        sessionId: s.sessionId,
        cwd: dir,
        updatedAt: s.lastUpdated,
        ...(title ? { title } : {}),
      };
    });
    const next = offset + LIST_PAGE_SIZE;
    return { sessions, ...(next < summaries.length ? { nextCursor: encodeCursor(next) } : {}) };
  }

  /** `session/delete`: closes the session here if open, then deletes it from the store. */
  async delete(sessionId: string): Promise<void> {
    const open = this.sessions.get(sessionId);
    if (open) {
      this.sessions.delete(sessionId);
      await open.close(this.host.options.shutdownGraceMs);
    }
    const dir = this.cwds.get(sessionId) ?? this.host.factory.defaultCwd;
    try {
      await this.host.factory.forProject(dir, this.host.auth()).deleteSession(sessionId);
    } catch (error) {
      throw toRequestError(error);
    }
  }
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decodeCursor(cursor: string | null | undefined): number {
  if (cursor === undefined || cursor === null) return 0;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      offset?: unknown;
    };
    if (typeof value.offset === 'number' && Number.isInteger(value.offset) && value.offset >= 0) {
      return value.offset;
    }
  } catch {
    // fall through
  }
  throw invalidParams(
    'cursor is not one this agent returned: pass a nextCursor from session/list.',
  );
}
