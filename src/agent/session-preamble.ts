import { join } from 'node:path';
import type { Part } from '@google/genai';
import type { Logger } from '../logger.js';
import {
  contextFileNames,
  loadMemory,
  readContextFiles,
  renderContextFiles,
  type LoadedMemory,
} from '../memory/context-files.js';
import type { ImportFormat } from '../memory/memory-imports.js';
import { ProjectRegistry } from '../sessions/project-registry.js';
import { slugifyProjectName } from '../sessions/session-paths.js';
import type { Workspace } from '../workspace/workspace.js';
import { buildSessionContextText } from './session-context-turn.js';
import type { PromptMemory } from './system-prompt.js';

/** How an agent's sessions start: which context files and which `<session_context>`. */
export interface PreambleConfig {
  /** Load GEMINI.md memory (the `memory` option; default true). */
  memory: boolean;
  /** Send gemini-cli's `<session_context>` first turn (the `sessionContext` option; default true). */
  sessionContext: boolean;
  /** Whether the working folder is trusted: project context files load only then. */
  trusted: boolean;
  /** `context.fileName`. */
  fileNames: string | readonly string[] | undefined;
  /** `context.memoryBoundaryMarkers`. */
  boundaryMarkers: readonly string[] | undefined;
  /** `context.importFormat`. */
  importFormat: ImportFormat | undefined;
  /** `context.includeDirectoryTree`. */
  includeDirectoryTree: boolean | undefined;
  /** Holds `.gemini/`. */
  home: string;
  /** Context files of the active extensions (absolute, in order): `<extension_context>`. */
  extensionFiles?: readonly string[];
  /** Context text of extensions given in code, rendered like files after them. */
  extensionTexts?: ReadonlyArray<{ label: string; text: string }>;
}

/** What one session starts with, computed once when it initializes. */
export interface SessionPreamble {
  /** Memory tiers for the system prompt (global and private project memory). */
  memory: PromptMemory;
  /** Parts put before the first user turn's own parts (the `<session_context>`); empty when off. */
  contextParts: Part[];
  /** Every context file loaded, by tier. */
  files: LoadedMemory;
  /** Names of the context files (`context.fileName`). */
  fileNames: string[];
}

/** `~/.gemini/tmp/<project>`, without registering the project (the session store does that). */
export async function projectTempDir(home: string, cwd: string): Promise<string> {
  const globalDir = join(home, '.gemini');
  const slug =
    (await new ProjectRegistry(globalDir).findShortId(cwd).catch(() => undefined)) ??
    slugifyProjectName(cwd);
  return join(globalDir, 'tmp', slug);
}

/**
 * Loads a session's context files and builds its `<session_context>`, as gemini-cli does when a chat starts:
 * global and private project memory go to the system prompt, the workspace's files into the first user turn.
 */
export async function loadSessionPreamble(
  config: PreambleConfig,
  workspace: Pick<Workspace, 'cwd' | 'roots'>,
  logger: Logger,
): Promise<SessionPreamble> {
  const dirs = workspace.roots.filter((r) => !r.readOnly).map((r) => r.path);
  const workspaceDirs = dirs.includes(workspace.cwd) ? dirs : [workspace.cwd, ...dirs];
  const tempDir = await projectTempDir(config.home, workspace.cwd);
  const files: LoadedMemory = config.memory
    ? await loadMemory({
        home: config.home,
        workspaceDirs,
        trusted: config.trusted,
        fileNames: config.fileNames,
        ...(config.boundaryMarkers ? { boundaryMarkers: config.boundaryMarkers } : {}),
        ...(config.importFormat ? { importFormat: config.importFormat } : {}),
        projectMemoryDir: join(tempDir, 'memory'),
        logger,
      })
    : { global: [], project: [], userProject: [] };
  // Extensions are opted into on their own (the extensions option, discovery): `memory: false` keeps them.
  const extensionFiles = [
    ...(await readContextFiles(config.extensionFiles ?? [], {
      ...(config.boundaryMarkers ? { boundaryMarkers: config.boundaryMarkers } : {}),
      ...(config.importFormat ? { importFormat: config.importFormat } : {}),
      logger,
    })),
    ...(config.extensionTexts ?? []).map((t) => ({ path: t.label, content: t.text })),
  ];
  const extensionMemory = renderContextFiles(extensionFiles);
  const contextParts: Part[] = [];
  if (config.sessionContext) {
    const text = await buildSessionContextText({
      workspaceDirs,
      projectTempDir: tempDir,
      ...(config.includeDirectoryTree === undefined
        ? {}
        : { includeDirectoryTree: config.includeDirectoryTree }),
      extensionMemory,
      projectMemory: renderContextFiles(files.project),
    });
    contextParts.push({ text });
  }
  return {
    memory: {
      global: renderContextFiles(files.global),
      userProjectMemory: renderContextFiles(files.userProject),
      // Without a <session_context> the workspace's files would be lost: they join the system prompt instead.
      ...(config.sessionContext
        ? {}
        : { extension: extensionMemory, project: renderContextFiles(files.project) }),
    },
    contextParts,
    files,
    fileNames: contextFileNames(config.fileNames),
  };
}

/**
 * Makes the preambles of one agent's sessions share their text: every session of an agent builds the same
 * `<session_context>` (about 10 KB with the directory tree) and the same memory texts, and kept its own copy of
 * each, the largest part of an idle session's heap (goal P5). A text equal to the one the previous session built
 * is replaced by that one (strings are immutable, so sharing is invisible); only the last text of each slot is
 * remembered, so a changed folder or date costs one string, never a growing cache.
 */
export function preambleTextSharer(): (preamble: SessionPreamble) => SessionPreamble {
  const last = new Map<string, string>();
  const share = (slot: string, text: string): string => {
    const previous = last.get(slot);
    if (previous === text) return previous;
    last.set(slot, text);
    return text;
  };
  return (preamble) => {
    preamble.contextParts.forEach((part, i) => {
      if (typeof part.text === 'string') part.text = share(`context:${i}`, part.text);
    });
    const memory = preamble.memory as Record<string, unknown>;
    for (const key of Object.keys(memory)) {
      const value = memory[key];
      if (typeof value === 'string') memory[key] = share(`memory:${key}`, value);
    }
    return preamble;
  };
}
