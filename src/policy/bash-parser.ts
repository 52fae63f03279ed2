import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';
import type * as TreeSitter from 'web-tree-sitter';
import type { Node as SyntaxNode } from 'web-tree-sitter';
import { decodeAnsiC } from './shell-quoting.js';
import type {
  ShellAssignment,
  ShellCommand,
  ShellInput,
  ShellParser,
  ShellScript,
  ShellWord,
} from './shell-syntax.js';
import { VENDORED, vendoredFile } from './vendored-files.js';
import { builtinModule } from '../lazy-require.js';

/** Longer scripts are not parsed: the policy fails closed on them. */
export const MAX_SCRIPT_LENGTH = 100_000;

const GLOB_OR_BRACE = /(?<!\\)[*?[{]/;

function unescapeWord(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([\\"$`])/g, '$1');
}

/** The value of a word when it is fixed at parse time; undefined when it expands, globs or is unknown. */
function literalOf(node: SyntaxNode): string | undefined {
  switch (node.type) {
    case 'word':
      return GLOB_OR_BRACE.test(node.text) ? undefined : unescapeWord(node.text);
    case 'number':
      return node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'ansi_c_string':
      return decodeAnsiC(node.text.slice(2, -1));
    case 'string': {
      if (!node.text.startsWith('"')) return undefined;
      const dynamic = node.namedChildren.some((child) => child?.type !== 'string_content');
      return dynamic ? undefined : unescapeDoubleQuoted(node.text.slice(1, -1));
    }
    case 'concatenation':
    case 'command_name': {
      let value = '';
      for (const child of node.namedChildren) {
        const part = child ? literalOf(child) : undefined;
        if (part === undefined) return undefined;
        value += part;
      }
      return node.namedChildren.length === 0 ? undefined : value;
    }
    default:
      return undefined;
  }
}

function word(node: SyntaxNode): ShellWord {
  return { text: node.text, literal: literalOf(node) };
}

/** `N>&M`, `N<&M`, `>&-`: duplicating or closing a descriptor touches no file. */
function isDescriptorDuplication(node: SyntaxNode): boolean {
  const operator = node.children.find(
    (child) => child && !child.isNamed && /[<>]/.test(child.type),
  );
  if (!operator || !/^[<>]&$/.test(operator.type)) return false;
  const destination = node.childForFieldName('destination');
  return destination === null || destination.type === 'number' || destination.text === '-';
}

function binding(node: SyntaxNode): ShellAssignment {
  const nameNode = node.childForFieldName('name');
  const valueNode = node.childForFieldName('value');
  const name = (nameNode?.text ?? node.text.split('=')[0] ?? '')
    .replace(/\[.*$/s, '')
    .replace(/\+$/, '');
  return { name, value: valueNode ? literalOf(valueNode) : '' };
}

/** What `echo` / `printf` with fixed arguments print (undefined when it cannot be known statically). */
function printedText(stage: SyntaxNode): string | undefined {
  if (stage.type !== 'command') return undefined;
  const name = stage.childForFieldName('name');
  const args = stage.childrenForFieldName('argument').filter((a) => a !== null);
  const command = name ? literalOf(name) : undefined;
  const values = args.map((a) => literalOf(a));
  if (values.some((v) => v === undefined)) return undefined;
  const texts = values as string[];
  if (command === 'echo') {
    if (texts.some((t) => /^-[neE]+$/.test(t)) || texts.some((t) => t.includes('\\')))
      return undefined;
    return `${texts.join(' ')}\n`;
  }
  if (command === 'printf' && texts.length === 1 && !/[%\\]/.test(texts[0]!)) return texts[0];
  return undefined;
}

/** Where a command's stdin comes from: a redirect on it, or the stage before it in a pipeline. */
function inputOf(command: SyntaxNode): ShellInput | undefined {
  const stage = command.parent?.type === 'redirected_statement' ? command.parent : command;
  const redirects = [
    ...command.namedChildren,
    ...(stage === command ? [] : stage.namedChildren),
  ].filter((child) => child !== null);
  for (const redirect of redirects) {
    if (redirect.type === 'herestring_redirect') {
      const value = redirect.namedChildren.find((c) => c !== null);
      const text = value ? literalOf(value) : undefined;
      return { text: text === undefined ? undefined : `${text}\n` };
    }
    if (redirect.type === 'heredoc_redirect') {
      const start = redirect.namedChildren.find((c) => c?.type === 'heredoc_start');
      const body = redirect.namedChildren.find((c) => c?.type === 'heredoc_body');
      const quoted = /['"\\]/.test(start?.text ?? '');
      const dynamic = body?.namedChildren.some((c) => c !== null && c.type !== 'heredoc_content');
      return { text: quoted || !dynamic ? (body?.text ?? '') : undefined };
    }
    if (redirect.type === 'file_redirect' && /^\d*<(?!&)/.test(redirect.text))
      return { text: undefined };
  }
  const pipeline = stage.parent;
  if (pipeline?.type === 'pipeline') {
    const stages = pipeline.namedChildren.filter((c) => c !== null);
    const index = stages.findIndex((c) => c.id === stage.id);
    if (index > 0) {
      const previous = stages[index - 1]!;
      const inner = previous.type === 'redirected_statement' ? previous.namedChildren[0] : previous;
      return { text: inner ? printedText(inner) : undefined };
    }
  }
  return undefined;
}

const STANDALONE_ASSIGNMENT_PARENTS = new Set([
  'command',
  'declaration_command',
  'variable_assignments',
]);

class ScriptCollector {
  readonly commands: ShellCommand[] = [];
  hasRedirection = false;
  error: string | undefined;

  visit(node: SyntaxNode): void {
    if (node.type === 'ERROR' || node.isMissing) {
      this.error ??= `syntax error near ${JSON.stringify(node.text.slice(0, 40))}`;
    }
    switch (node.type) {
      case 'command': {
        const name = node.childForFieldName('name');
        const args = node.childrenForFieldName('argument');
        const prefix = node.namedChildren.filter(
          (child) => child !== null && child.type === 'variable_assignment',
        );
        const words = [...(name ? [word(name)] : []), ...args.filter((a) => a !== null).map(word)];
        this.commands.push({
          text: node.text,
          type: 'command',
          assignments: prefix.map((child) => child?.text ?? ''),
          words,
          bindings: prefix.map((child) => binding(child!)),
          stdin: inputOf(node),
        });
        break;
      }
      case 'declaration_command': {
        const children = node.namedChildren.filter((child) => child !== null);
        const assigned = children.filter((child) => child.type === 'variable_assignment');
        // `export NAME` (no value) marks a variable too; a name that expands (`export "$x"`) is a word.
        const named = children.filter((child) => child.type !== 'variable_assignment');
        const bindings = [
          ...assigned.map((child) => binding(child)),
          ...named
            .map((child) => literalOf(child))
            .filter((value): value is string => value !== undefined && !value.startsWith('-'))
            .map((name) => ({ name: name.split('=')[0] ?? name, value: '' })),
        ];
        this.commands.push({
          text: node.text,
          type: 'declaration',
          assignments: [],
          words: named.map(word),
          bindings,
          stdin: undefined,
        });
        break;
      }
      case 'unset_command':
        this.push(node, 'unset');
        break;
      case 'test_command':
        this.push(node, 'test');
        break;
      case 'variable_assignment':
      case 'variable_assignments':
        if (!STANDALONE_ASSIGNMENT_PARENTS.has(node.parent?.type ?? '')) {
          const bindings =
            node.type === 'variable_assignment'
              ? [binding(node)]
              : node.namedChildren
                  .filter((c) => c !== null && c.type === 'variable_assignment')
                  .map((c) => binding(c!));
          this.push(node, 'assignment', bindings);
        }
        break;
      case 'file_redirect':
        if (!isDescriptorDuplication(node)) this.hasRedirection = true;
        break;
      case 'heredoc_redirect':
      case 'herestring_redirect':
        this.hasRedirection = true;
        break;
      case 'expansion':
        // `${var@P}` expands the value like a prompt, running any command substitution inside it.
        if (/@P\s*\}$/.test(node.text)) this.error ??= 'prompt expansion ${…@P} can run commands';
        break;
      default:
        break;
    }
    for (const child of node.children) if (child) this.visit(child);
  }

  private push(
    node: SyntaxNode,
    type: ShellCommand['type'],
    bindings: readonly ShellAssignment[] = [],
  ): void {
    this.commands.push({
      text: node.text,
      type,
      assignments: [],
      words: [],
      bindings,
      stdin: undefined,
    });
  }
}

let loading: Promise<ShellParser> | undefined;

async function load(): Promise<ShellParser> {
  // The vendored runtime (the same build as the web-tree-sitter devDependency its types come from).
  const runtime = vendoredFile(VENDORED.treeSitter);
  const { Parser, Language } = createRequire(import.meta.url)(runtime) as typeof TreeSitter;
  // web-tree-sitter keeps its Wasm module in module state: init must run once per process.
  // Its Wasm core is handed over as bytes (`wasmBinary`), so the runtime never looks for a file of its own.
  const { gunzipSync } = builtinModule<typeof Zlib>('node:zlib');
  const wasmBinary = gunzipSync(readFileSync(vendoredFile(VENDORED.treeSitterWasm)));
  await Parser.init({ wasmBinary });
  const language = await Language.load(
    gunzipSync(readFileSync(vendoredFile(VENDORED.bashGrammar))),
  );
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    parse(script: string): ShellScript {
      if (script.length > MAX_SCRIPT_LENGTH) {
        return fail(`the command is longer than ${MAX_SCRIPT_LENGTH} characters`);
      }
      const tree = parser.parse(script);
      if (!tree) return fail('the parser gave up');
      try {
        const collector = new ScriptCollector();
        collector.visit(tree.rootNode);
        const error =
          collector.error ??
          (tree.rootNode.hasError ? 'syntax error' : undefined) ??
          (collector.commands.length === 0 ? 'no command found' : undefined);
        return {
          ok: error === undefined,
          error,
          commands: collector.commands,
          hasRedirection: collector.hasRedirection,
        };
      } finally {
        tree.delete();
      }
    },
  };
}

function fail(error: string): ShellScript {
  return { ok: false, error, commands: [], hasRedirection: false };
}

/**
 * The bash parser gemini-cli uses (tree-sitter-bash, run through web-tree-sitter's Wasm build), loaded lazily on
 * the first shell check and shared by every engine in the process (web-tree-sitter's runtime can only be
 * initialised once).
 */
export function loadBashParser(): Promise<ShellParser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
