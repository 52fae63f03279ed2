import { createRequire } from 'node:module';
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { ShellCommand, ShellParser, ShellScript, ShellWord } from './shell-syntax.js';

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
        const assignments = node.namedChildren
          .filter((child) => child?.type === 'variable_assignment')
          .map((child) => child?.text ?? '');
        const words = [...(name ? [word(name)] : []), ...args.filter((a) => a !== null).map(word)];
        this.commands.push({ text: node.text, type: 'command', assignments, words });
        break;
      }
      case 'declaration_command':
        this.push(node, 'declaration');
        break;
      case 'unset_command':
        this.push(node, 'unset');
        break;
      case 'test_command':
        this.push(node, 'test');
        break;
      case 'variable_assignment':
      case 'variable_assignments':
        if (!STANDALONE_ASSIGNMENT_PARENTS.has(node.parent?.type ?? ''))
          this.push(node, 'assignment');
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

  private push(node: SyntaxNode, type: ShellCommand['type']): void {
    this.commands.push({ text: node.text, type, assignments: [], words: [] });
  }
}

let loading: Promise<ShellParser> | undefined;

async function load(): Promise<ShellParser> {
  const { Parser, Language } = await import('web-tree-sitter');
  // web-tree-sitter keeps its Wasm module in module state: init must run once per process.
  await Parser.init();
  const wasm = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
  const language = await Language.load(wasm);
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
