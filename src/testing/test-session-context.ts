import type { AgentHandle, SessionContext, SessionHandle } from '../core/session-context.js';
import type { Workspace } from '../workspace/workspace.js';

/** Options for {@link createTestSessionContext}. */
export interface TestSessionContextOptions {
  /** Defaults to `test-session`. */
  sessionId?: string;
  /** Defaults to a signal that never fires. */
  signal?: AbortSignal;
}

/**
 * A {@link SessionContext} around a workspace, for calling tools directly in tests: real `fs`, `shell` and
 * `cwd` from the workspace; an empty transcript; `agent` and `session` are placeholders that throw when a
 * tool touches them (so a test notices instead of passing on a fake).
 */
export function createTestSessionContext(
  workspace: Workspace,
  options: TestSessionContextOptions = {},
): SessionContext {
  const placeholder = (what: string): never =>
    new Proxy(
      {},
      {
        get(_target, property) {
          throw new Error(
            `The test SessionContext has no ${what} (tried to read "${String(property)}"). Run the tool through a real session instead.`,
          );
        },
      },
    ) as never;
  return Object.freeze({
    sessionId: options.sessionId ?? 'test-session',
    transcript: Object.freeze([]),
    cwd: workspace.cwd,
    timestamp: new Date().toISOString(),
    fs: workspace.fs,
    shell: workspace.shell,
    agent: placeholder('agent') as AgentHandle,
    session: placeholder('session') as SessionHandle,
    signal: options.signal ?? new AbortController().signal,
  });
}
