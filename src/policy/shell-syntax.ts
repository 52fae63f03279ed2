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

/** A variable assignment (`NAME=value` before a command, standalone, or in `export` / `declare` …). */
export interface ShellAssignment {
  /** The variable's name (`BASH_ALIASES` for `BASH_ALIASES[x]=…`). */
  readonly name: string;
  /** The value when it is fixed at parse time; undefined when it expands. */
  readonly value: string | undefined;
}

/** Where a command's standard input comes from, when the script says. */
export interface ShellInput {
  /** The text the command reads, when it is fixed (here-string, quoted heredoc, `echo '…' |`). */
  readonly text: string | undefined;
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
  /** Every assignment this command makes (prefix, standalone, `export` / `declare` / `local` …). */
  readonly bindings: readonly ShellAssignment[];
  /** Set when stdin is redirected or piped: what the command reads, when known. */
  readonly stdin: ShellInput | undefined;
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
