/**
 * The layer and cycle check (`npm run check:layers`, part of `npm run lint` and of `npm test`): reads every
 * non-test source file under `src/`, collects its imports with TypeScript's own scanner (static, `import type`,
 * `export … from` and dynamic `import()` alike), and fails on
 *
 * - an import cycle between files (type-only imports count: a type import upward is still a dependency),
 * - an import that points up the layer table below, or sideways into another folder of the same layer,
 * - a source file in no layer (a new folder must be placed in the table on purpose).
 *
 * The picture and the reasons are in docs/architecture.md.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One floor of the SDK: the `src/`-relative folders (ending in `/`) or files that belong to it. */
export interface Layer {
  name: string;
  members: readonly string[];
}

/**
 * The layers, lowest first. A file may import files of its own folder and of lower layers only; folders of one
 * layer are peers and never import each other. The longest matching member decides (`tools/builtin/` is a
 * feature, the rest of `tools/` a service).
 */
export const LAYERS: readonly Layer[] = [
  // Where the package is installed, and how the shared modules load their libraries from there (decision D31).
  { name: 'base', members: ['package-json.ts'] },
  { name: 'loader', members: ['lazy-require.ts'] },
  {
    name: 'shared',
    members: ['errors.ts', 'events.ts', 'logger.ts', 'linear-regex.ts'],
  },
  { name: 'core', members: ['core/'] },
  { name: 'ports', members: ['model/', 'workspace/', 'settings/'] },
  { name: 'services', members: ['tools/', 'sessions/'] },
  { name: 'loop', members: ['loop/'] },
  {
    name: 'features',
    members: [
      'skills/',
      'policy/',
      'tools/builtin/',
      'memory/',
      'context/',
      'hooks/',
      'mcp/',
      'subagents/',
      'telemetry/',
    ],
  },
  // Bundles of features (an extension brings skills, hooks, MCP servers, policies and context together).
  { name: 'bundles', members: ['extensions/'] },
  { name: 'agent', members: ['agent/'] },
  // Protocol servers built on the agent that the root entry exports (loading their protocol SDK lazily).
  { name: 'servers', members: ['acp/', 'viewer/'] },
  { name: 'public API', members: ['index.ts'] },
  { name: 'adapters', members: ['cli/', 'testing/', 'postgres/'] },
];

/** Where a file sits: its layer's index and the member (folder or file) it belongs to. */
interface Place {
  rank: number;
  member: string;
}

function placeOf(file: string, layers: readonly Layer[]): Place | undefined {
  let best: Place | undefined;
  layers.forEach((layer, rank) => {
    for (const member of layer.members) {
      const hit = member.endsWith('/') ? file.startsWith(member) : file === member;
      if (hit && (best === undefined || member.length > best.member.length))
        best = { rank, member };
    }
  });
  return best;
}

function sourceFiles(dir: string, root: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, root, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
      out.push(relative(root, path).split(sep).join('/'));
  }
  return out;
}

/** The `src/`-relative files a source file imports (relative specifiers only; packages are not ours). */
export function importsOf(file: string, source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  const out = new Set<string>();
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = join(dirname(file), fileName).split(sep).join('/');
    out.add(target.replace(/\.js$/, '.ts'));
  }
  return [...out];
}

/** The import graph of `src/` (non-test files): file → files it imports. */
export function importGraph(srcDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(srcDir, srcDir)) {
    graph.set(file, importsOf(file, readFileSync(join(srcDir, file), 'utf8')));
  }
  return graph;
}

/** Every cycle of files (strongly connected components of two or more files, or a file importing itself). */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return cycles;
}

/** Every problem with the graph against the layers: one readable line each (empty when all is well). */
export function checkLayers(
  graph: ReadonlyMap<string, readonly string[]>,
  layers: readonly Layer[] = LAYERS,
): string[] {
  const problems: string[] = [];
  const describe = (p: Place): string => `${layers[p.rank]?.name} (${p.member})`;
  for (const [file, imports] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    const from = placeOf(file, layers);
    if (from === undefined) {
      problems.push(
        `src/${file} is in no layer: add its folder to LAYERS in scripts/check-layers.ts (see ` +
          'docs/architecture.md for what each layer may use).',
      );
      continue;
    }
    for (const target of imports) {
      if (!graph.has(target)) continue;
      const to = placeOf(target, layers);
      if (to === undefined || to.member === from.member) continue;
      if (to.rank > from.rank) {
        problems.push(
          `src/${file} imports src/${target}: ${describe(from)} must not import the layer above it, ` +
            `${describe(to)}. Move the contract it needs down (e.g. into src/core/) or invert the dependency.`,
        );
      } else if (to.rank === from.rank) {
        problems.push(
          `src/${file} imports src/${target}: ${from.member} and ${to.member} are peers in the ` +
            `${layers[from.rank]?.name} layer and must not import each other. Move what they share down a layer.`,
        );
      }
    }
  }
  for (const cycle of findCycles(graph)) {
    problems.push(
      `Import cycle (type imports count) between ${cycle.length} files: ${cycle.map((f) => `src/${f}`).join(', ')}.`,
    );
  }
  return problems;
}

const isMain =
  process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const src = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');
  const graph = importGraph(src);
  const problems = checkLayers(graph);
  if (problems.length > 0) {
    process.stderr.write(`Layer check failed:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(
      `Layer check: ${graph.size} files, no cycle, no upward or sideways import.\n`,
    );
  }
}
