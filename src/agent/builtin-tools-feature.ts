import { join } from 'node:path';
import type { AgentTool } from '../core/agent-tool.js';
import type { Feature } from '../core/feature.js';
import type { SessionHandle } from '../core/session-context.js';
import type { SessionRuntime } from '../core/session-runtime.js';
import { InternalError } from '../errors.js';
import { contextFileNames } from '../memory/context-files.js';
import { geminiHome } from '../settings/settings-paths.js';
import {
  createBuiltinTools,
  type BuiltinToolSelection,
} from '../tools/builtin/create-builtin-tools.js';
import type { GroundedSearch } from '../tools/builtin/google-web-search.js';
import { ASK_USER_TOOL_NAME, type AskUserHandler } from '../tools/builtin/ask-user.js';
import type { PolicySource } from '../core/policy-rule.js';
import { projectTempDir } from './session-preamble.js';

/**
 * The model `google_web_search` asks, with gemini-cli's `web-search` model config (`gemini-3-flash-base`:
 * temperature 0, topP 1) and the `googleSearch` tool.
 */
export const WEB_SEARCH_MODEL = 'gemini-3-flash-preview';

/**
 * `ask_user` runs whenever a handler answers it. In gemini-cli its confirmation *is* the question dialog (every
 * mode asks, non-interactive mode denies); here the handler asks, so the call itself is allowed in every mode —
 * above the built-in non-interactive deny (tier `extension`), below any rule a workspace, user or admin writes.
 */
const ASK_USER_POLICY: readonly PolicySource[] = [
  {
    origin: { tier: 'extension', source: 'SDK default (onAskUser)' },
    rules: [
      {
        name: 'ask_user is answered by onAskUser',
        toolName: ASK_USER_TOOL_NAME,
        decision: 'allow',
        priority: 0,
      },
    ],
  },
];

/** What the built-in tools feature needs from the agent. */
export interface BuiltinToolsFeatureOptions {
  selection: BuiltinToolSelection;
  /** `context.fileName` from the settings: `save_memory` writes the first name under `~/.gemini/`. */
  contextFileName: string | readonly string[] | undefined;
  /** The `onAskUser` option: `ask_user` is offered only with it. */
  askUser: AskUserHandler | undefined;
  /** gemini-cli's `tools.core` / `tools.exclude` filter over the built tools. */
  filter(tools: AgentTool[]): AgentTool[];
}

/**
 * gemini-cli's built-in tools as a feature. `google_web_search` needs the session's model client: the feature keeps
 * each session's runtime while it is open, and the search makes its grounded `generateContent` call through it
 * (counted in the session's usage and budget). `save_memory` writes gemini-cli's memory files.
 */
export function createBuiltinToolsFeature(options: BuiltinToolsFeatureOptions): Feature {
  const runtimes = new WeakMap<SessionHandle, SessionRuntime>();
  const search: GroundedSearch = async (query, ctx, signal) => {
    const runtime = runtimes.get(ctx.session);
    if (runtime === undefined) {
      throw new InternalError(
        `google_web_search ran in session ${ctx.sessionId} before the session initialized.`,
      );
    }
    const response = await runtime.generateContent(
      {
        model: WEB_SEARCH_MODEL,
        contents: [{ role: 'user', parts: [{ text: query }] }],
        config: { temperature: 0, topP: 1, tools: [{ googleSearch: {} }] },
      },
      signal,
    );
    const candidate = response.candidates?.[0];
    const text = (candidate?.content?.parts ?? [])
      .filter((part) => !part.thought && typeof part.text === 'string')
      .map((part) => part.text)
      .join('');
    return { text, groundingMetadata: candidate?.groundingMetadata };
  };
  const fileName = contextFileNames(options.contextFileName)[0] ?? 'GEMINI.md';
  const tools = options.filter(
    createBuiltinTools(options.selection, {
      webSearch: search,
      memory: {
        globalFile: () => join(geminiHome(), '.gemini', fileName),
        projectFile: async (cwd) =>
          join(await projectTempDir(geminiHome(), cwd), 'memory', 'MEMORY.md'),
      },
      ...(options.askUser ? { askUser: options.askUser } : {}),
    }),
  );
  return {
    name: 'built-in tools',
    tools,
    ...(tools.some((t) => t.name === ASK_USER_TOOL_NAME) ? { policy: ASK_USER_POLICY } : {}),
    initialize(session) {
      runtimes.set(session.session, session.runtime);
      return () => {
        if (runtimes.get(session.session) === session.runtime) runtimes.delete(session.session);
      };
    },
  };
}
