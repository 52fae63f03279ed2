import type { AskUserHandler, AskUserQuestion, AskUserResponse } from './sdk.js';

/**
 * Where the questions' answers come from: the REPL's next input line (undefined at end of input); rejects when
 * `signal` aborts, and the line it was waiting for then stays for the REPL.
 */
export type NextLine = (signal: AbortSignal) => Promise<string | undefined>;

/** The line that dismisses the questions (gemini's Esc). */
export const CANCEL_ANSWER = '/cancel';

/** The choices shown for a question (gemini's dialog: `yesno` is Yes / No), each numbered from 1. */
function choicesOf(question: AskUserQuestion): Array<{ label: string; description: string }> {
  if (question.type === 'yesno') {
    return [
      { label: 'Yes', description: '' },
      { label: 'No', description: '' },
    ];
  }
  return question.type === 'choice' ? (question.options ?? []) : [];
}

/** How one question is printed. */
export function renderQuestion(question: AskUserQuestion, index: number, count: number): string {
  const lines = [
    `${count > 1 ? `(${index + 1}/${count}) ` : ''}[${question.header}] ${question.question}`,
  ];
  const choices = choicesOf(question);
  choices.forEach((choice, i) => {
    lines.push(
      `  ${i + 1}. ${choice.label}${choice.description ? ` — ${choice.description}` : ''}`,
    );
  });
  if (choices.length > 0) {
    const how = question.multiSelect ? 'numbers separated by commas' : 'a number';
    lines.push(
      `  (${how}, or type your own answer${question.placeholder ? ` — ${question.placeholder}` : ''})`,
    );
  } else if (question.placeholder) {
    lines.push(`  (${question.placeholder})`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The answer a line gives (gemini's dialog's answer strings): a number picks that choice (several, comma-separated,
 * for a multi-select question; the labels joined by `, `), `y` / `n` answer a yes/no question, anything else is the
 * user's own ("Other") text. An empty line leaves the question unanswered.
 */
export function answerFrom(question: AskUserQuestion, line: string): string {
  const text = line.trim();
  const choices = choicesOf(question);
  if (text === '' || choices.length === 0) return text;
  if (question.type === 'yesno') {
    if (/^(y|yes)$/i.test(text)) return 'Yes';
    if (/^(n|no)$/i.test(text)) return 'No';
  }
  const picks = question.multiSelect ? text.split(',').map((p) => p.trim()) : [text];
  const labels = picks.map((pick) =>
    /^\d+$/.test(pick) ? choices[Number(pick) - 1]?.label : undefined,
  );
  return labels.every((label) => label !== undefined) ? labels.join(', ') : text;
}

/**
 * The `-i` REPL's `onAskUser`: prints each question on `write` and reads its answer from the REPL's input, one line
 * a question. `/cancel` (or the end of the input) dismisses them; Ctrl-C cancels the turn, as during any tool call.
 * Before the REPL attaches its input (or after it detached it), the questions are dismissed.
 */
export class ReplQuestions {
  private nextLine: NextLine | undefined;

  constructor(private readonly write: (text: string) => void) {}

  /** Answers questions from `nextLine` from now on. */
  attach(nextLine: NextLine): void {
    this.nextLine = nextLine;
  }

  /** Stops reading answers (the REPL ended). */
  detach(): void {
    this.nextLine = undefined;
  }

  /** The handler to pass as the agent's `onAskUser`. */
  readonly handler: AskUserHandler = async (
    { questions },
    { signal },
  ): Promise<AskUserResponse> => {
    const answers: Record<string, string> = {};
    for (const [index, question] of questions.entries()) {
      const nextLine = this.nextLine;
      if (nextLine === undefined) return { cancelled: true };
      this.write(renderQuestion(question, index, questions.length));
      const line = await nextLine(signal);
      if (line === undefined || line.trim() === CANCEL_ANSWER) return { cancelled: true };
      const answer = answerFrom(question, line);
      if (answer !== '') answers[String(index)] = answer;
    }
    return { answers };
  };
}
