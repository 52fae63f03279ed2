/**
 * True when the command uses command or process substitution outside single quotes: `$(…)`, backticks,
 * `<(…)` or `>(…)` (gemini-cli refuses those before running a command).
 */
export function hasCommandSubstitution(command: string): boolean {
  let single = false;
  let double = false;
  for (let i = 0; i < command.length; i += 1) {
    const ch = command[i];
    const next = command[i + 1];
    if (single) {
      if (ch === "'") single = false;
      continue;
    }
    if (ch === '\\') {
      i += 1;
      continue;
    }
    if (ch === "'" && !double) {
      single = true;
      continue;
    }
    if (ch === '"') {
      double = !double;
      continue;
    }
    if (ch === '`') return true;
    if (ch === '$' && next === '(') return true;
    if (!double && (ch === '<' || ch === '>') && next === '(') return true;
  }
  return false;
}

/** Removes ANSI escape sequences (colours, cursor moves) from command output. */
export function stripAnsi(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g,
    '',
  );
}

/** gemini-cli's `<untrusted_context>` wrapper; a closing tag inside the text is escaped. */
export function wrapUntrusted(text: string): string {
  const safe = text.replace(/<\/untrusted_context>/gi, '&lt;/untrusted_context&gt;');
  return `<untrusted_context>\n${safe}\n</untrusted_context>`;
}
