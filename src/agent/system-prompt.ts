import { ConfigurationError } from '../errors.js';
import { contextHeader, CORE_GUIDELINES, CORE_PREAMBLE } from './prompt-text.js';

/**
 * The `systemPrompt` option: `'default'` (our core preamble and guidelines around the feature sections, with the
 * instructions in the GEMINI.md slot), `'none'` (no preamble: the feature sections and then the instructions
 * verbatim), or any other string, which replaces the core preamble and guidelines (the feature sections and the
 * context block still follow it).
 */
export type SystemPromptOption = 'default' | 'none' | (string & Record<never, never>);

/**
 * Context-file memory (GEMINI.md and friends), by tier, as gemini-cli renders it inside `<loaded_context>`.
 * Settings loading fills it; each tier is plain text.
 */
export interface PromptMemory {
  /** `~/.gemini/GEMINI.md` and other global context. */
  global?: string;
  /** Private, per-user project memory. */
  userProjectMemory?: string;
  /** Context files of active extensions. */
  extension?: string;
  /** The workspace's context files. */
  project?: string;
}

/** What {@link buildSystemPrompt} puts together for one model call. */
export interface SystemPromptInput {
  /** The `systemPrompt` option (default `'default'`). */
  systemPrompt?: SystemPromptOption | undefined;
  /** Feature sections in order (skills, …); empty ones are skipped. */
  sections?: ReadonlyArray<string | undefined>;
  /** The rendered `instructions` option: goes where gemini-cli puts GEMINI.md, verbatim. */
  instructions?: string | undefined;
  /** Context-file memory; rendered in the same block as the instructions. */
  memory?: PromptMemory | undefined;
  /** Names of the context files for the block's heading (default `['GEMINI.md']`). */
  contextFileNames?: readonly string[] | undefined;
}

const MEMORY_TIERS: ReadonlyArray<[keyof PromptMemory, string]> = [
  ['global', 'global_context'],
  ['userProjectMemory', 'user_project_memory'],
  ['extension', 'extension_context'],
  ['project', 'project_context'],
];

/**
 * Checks the `systemPrompt` option.
 *
 * @throws ConfigurationError when it is not a string.
 */
export function validateSystemPrompt(value: unknown): SystemPromptOption {
  if (value === undefined || value === null) return 'default';
  if (typeof value !== 'string') {
    throw new ConfigurationError(
      `The systemPrompt option must be 'default', 'none' or your own prompt text (got ${typeof value}).`,
    );
  }
  return value;
}

/**
 * Builds the system prompt of one model call. With `'default'` (or a custom base prompt): the base prompt, the
 * feature sections, our guidelines (default only), then the context block as gemini-cli 0.61 renders it. Global
 * memory alone (the usual case) is gemini-cli's string form: a `# Contextual Instructions (GEMINI.md)` heading and
 * `<loaded_context>` holding the files; with other tiers (private project memory, …) it is the hierarchical form
 * `---` + `<loaded_context>` with one tag per tier. The instructions follow the memory in
 * `<application_instructions>`; alone they fill `<loaded_context>` as a plain GEMINI.md string would. With
 * `'none'`: the sections, the memory and the instructions verbatim, nothing else. Returns undefined when there is
 * nothing at all (the request then carries no `systemInstruction`).
 */
export function buildSystemPrompt(input: SystemPromptInput): string | undefined {
  const option = input.systemPrompt ?? 'default';
  const sections = (input.sections ?? []).filter(isText);
  const instructions = isText(input.instructions) ? input.instructions : undefined;
  const memory = input.memory ?? {};
  const hierarchical = MEMORY_TIERS.some(([key]) => key !== 'global' && isText(memory[key]));
  const tiers = hierarchical
    ? MEMORY_TIERS.flatMap(([key, tag]) => {
        const text = memory[key];
        if (!isText(text)) return [];
        const body =
          key === 'userProjectMemory'
            ? `--- Private Project Memory Index (private, not committed to repo) ---\n${text.trim()}\n--- End Private Project Memory Index ---`
            : text.trim();
        return [`<${tag}>\n${body}\n</${tag}>`];
      })
    : isText(memory.global)
      ? [memory.global.trim()]
      : [];
  if (option === 'none') return joinPieces([...sections, ...tiers, instructions]);
  const base =
    option === 'default' ? [CORE_PREAMBLE, ...sections, CORE_GUIDELINES] : [option, ...sections];
  const loaded =
    tiers.length > 0
      ? [...tiers, ...(instructions ? [appTag(instructions)] : [])].join('\n')
      : instructions;
  const block =
    loaded === undefined
      ? undefined
      : hierarchical
        ? `---\n\n<loaded_context>\n${loaded}\n</loaded_context>`
        : `${contextHeader(input.contextFileNames ?? ['GEMINI.md'])}\n\n<loaded_context>\n${loaded}\n</loaded_context>`;
  return joinPieces([...base.map((piece) => piece.trim()), block]);
}

function appTag(instructions: string): string {
  return `<application_instructions>\n${instructions}\n</application_instructions>`;
}

function isText(value: string | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function joinPieces(pieces: ReadonlyArray<string | undefined>): string | undefined {
  const kept = pieces.filter(isText);
  return kept.length > 0 ? kept.join('\n\n') : undefined;
}
