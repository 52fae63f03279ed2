import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Part } from '@google/genai';
import type { SessionContext } from '../../../src/core/session-context.js';
import { createBuiltinTools } from '../../../src/tools/builtin/create-builtin-tools.js';
import type { ToolResult } from '../../../src/core/agent-tool.js';
import { createTestSessionContext } from '../../../src/testing/test-session-context.js';
import {
  createWorkspace,
  type Workspace,
  type WorkspaceOptions,
} from '../../../src/workspace/workspace.js';

/** A workspace next to an "outside" directory full of canaries, and a way to prove they were not touched. */
export interface Arena {
  base: string;
  ws: string;
  outside: string;
  workspace: Workspace;
  ctx: SessionContext;
  /** Runs a built-in tool with this arena's context. */
  tool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  /** Throws when anything outside changed: a canary's content, a new or missing entry. */
  assertOutsideUntouched(): void;
  cleanup(): void;
}

/** The text canary files outside the workspace hold; a read that returns it escaped. */
export const CANARY = 'CANARY-outside-the-workspace';

const TOOLS = new Map(createBuiltinTools('all').map((t) => [t.name, t]));

/** Every file and directory below `dir` with its content (files) or `/` (directories). */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const full = path.join(current, name);
      const rel = path.relative(dir, full);
      const info = statSync(full, { throwIfNoEntry: false });
      if (!info) continue;
      if (info.isDirectory()) {
        out[rel] = '/';
        walk(full);
      } else {
        out[rel] = readFileSync(full, 'utf8');
      }
    }
  };
  walk(dir);
  return out;
}

/** Tool output as text. */
export function resultText(result: ToolResult): string {
  const content =
    typeof result.llmContent === 'string'
      ? result.llmContent
      : result.llmContent.map((p: Part) => p.text ?? '').join('\n');
  return `${content}\n${result.returnDisplay ?? ''}\n${result.error?.message ?? ''}`;
}

/**
 * Builds the arena: `outside/` holds canaries (`secret`, `sub/keep`, `sub/deeper/keep`), `ws/` is the
 * workspace root; `setup(ws, outside)` adds whatever the attack needs.
 */
export function createArena(
  setup: (ws: string, outside: string) => void = () => undefined,
  options: Omit<WorkspaceOptions, 'cwd'> = {},
): Arena {
  const base = mkdtempSync(path.join(os.tmpdir(), 'attack-'));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(path.join(outside, 'sub', 'deeper'), { recursive: true });
  for (const rel of ['secret', 'sub/keep', 'sub/deeper/keep']) {
    writeFile(path.join(outside, rel), CANARY);
  }
  setup(ws, outside);
  const before = snapshot(outside);
  const workspace = createWorkspace({ cwd: ws, ...options });
  const ctx = createTestSessionContext(workspace);
  const call = { callId: 'attack', signal: new AbortController().signal };
  return {
    base,
    ws,
    outside,
    workspace,
    ctx,
    tool(name, args) {
      const tool = TOOLS.get(name);
      if (!tool) throw new Error(`no tool ${name}`);
      return tool.execute(args, ctx, call);
    },
    assertOutsideUntouched() {
      const after = snapshot(outside);
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        throw new Error(
          `outside changed:\nbefore ${JSON.stringify(before)}\nafter  ${JSON.stringify(after)}`,
        );
      }
    },
    cleanup() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}

function writeFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}
