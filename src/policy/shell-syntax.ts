/**
 * The shell syntax the policy reasons about, independent of the parser: every simple command a script would run
 * (wherever it sits: lists, pipelines, subshells, groups, substitutions, loops, function bodies), and whether the
 * script redirects to or from files.
 */

/** One word of a simple command. */
export interface ShellWord {
  /** Source text, quotes included. */
  readonly text: string;
  /** The word's value when it is fixed at parse time (quotes removed); undefined when it expands or globs. */
  readonly literal: string | undefined;
}

/** One simple command (or standalone assignment / declaration / test) found anywhere in a script. */
export interface ShellCommand {
  /** Source text of the command, as rules see it. */
  readonly text: string;
  /**
   * `command` for `name args…`; `assignment` for a standalone `VAR=value`; `declaration` for
   * `export` / `declare` / `local` / `readonly` / `typeset`; `unset`; `test` for `[[ … ]]`.
   */
  readonly type: 'command' | 'assignment' | 'declaration' | 'unset' | 'test';
  /** Leading `VAR=value` assignments (command type only). */
  readonly assignments: readonly string[];
  /** The name followed by the arguments (command type only). */
  readonly words: readonly ShellWord[];
}

/** A parsed script. */
export interface ShellScript {
  /** False when the parser found a syntax error or a construct it cannot see through; the policy then fails closed. */
  readonly ok: boolean;
  /** Why `ok` is false. */
  readonly error: string | undefined;
  /** Every command, in source order. */
  readonly commands: readonly ShellCommand[];
  /** True when anything reads or writes a file through `>`, `>>`, `<`, `&>`, a heredoc or a herestring. */
  readonly hasRedirection: boolean;
}

/** Parses shell scripts into {@link ShellScript}s. */
export interface ShellParser {
  parse(script: string): ShellScript;
}
