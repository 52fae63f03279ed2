import { raceAbort } from '../core/abort.js';
import type { Feature, FeatureWorkspace } from '../core/feature.js';
import type { McpManager } from './mcp-manager.js';

/** The MCP client as a feature, and the manager behind `agent.mcp`. */
export interface McpFeature extends Feature {
  readonly manager: McpManager;
}

/**
 * The MCP client as a {@link Feature}: its `initialize` starts the agent's servers (in parallel, once, when the
 * first session initializes; an agent without servers pays nothing) and waits for them to connect or fail, each
 * failure a `warning` event; its `tools` provider offers the connected servers' tools before every model call;
 * its `systemSection` carries the servers' instructions; `dispose` stops the servers (on `agent.close()`).
 *
 * The first session's workspace gives `roots/list` its directories (read at each request).
 */
export function createMcpFeature(manager: McpManager): McpFeature {
  let workspace: FeatureWorkspace | undefined;
  return {
    name: 'mcp',
    manager,
    tools: () => manager.tools(),
    systemSection: () => manager.instructions() || undefined,
    async initialize(session) {
      if (!manager.configured) return undefined;
      workspace ??= session.workspace;
      manager.useRoots(() => (workspace?.roots ?? []).map((root) => root.path));
      const unsubscribe = manager.subscribe((warning) =>
        session.emit({ type: 'warning', value: warning }),
      );
      try {
        await raceAbort(manager.start(), session.signal);
      } catch (error) {
        unsubscribe();
        throw error;
      }
      return unsubscribe;
    },
    dispose: () => manager.close(),
  };
}
