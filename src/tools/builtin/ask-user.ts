import { z } from 'zod';
import { raceAbort } from '../../core/abort.js';
import type { AgentTool, ToolResult } from '../../core/agent-tool.js';
import { compileArgumentsCheck } from '../schema/json-schema-validator.js';
import { errorResult } from './builtin-tool.js';

/** One choice of an `ask_user` question (gemini-cli's `QuestionOption`). */
export interface AskUserOption {
  /** The display text (1–5 words). */
  label: string;
  /** What the option means (may be empty). */
  description: string;
}

/** One question the model asks (gemini-cli's `Question`). */
export interface AskUserQuestion {
  /** The question itself. */
  question: string;
  /** A very short label for it ("Auth method", "Library"). */
  header: string;
  /**
   * `'choice'`: pick from `options` (2–4; gemini-cli adds an "Other" free-text choice); `'text'`: free text;
   * `'yesno'`: Yes or No (or "Other" feedback).
   */
  type: 'choice' | 'text' | 'yesno';
  /** The choices of a `'choice'` question. */
  options?: AskUserOption[];
  /** A `'choice'` question may take several options (answered as their labels joined by `, `). */
  multiSelect?: boolean;
  /** Hint text for the free-text input. */
  placeholder?: string;
}

/** What an {@link AskUserHandler} is asked: the questions of one `ask_user` call. */
export interface AskUserRequest {
  sessionId: string;
  /** The model's call id (the `tool_call_request` event's). */
  callId: string;
  /** The questions, in order; answers are keyed by their index. */
  questions: AskUserQuestion[];
}

/**
 * What an {@link AskUserHandler} returns (gemini-cli's `AskUserResponse`): the answers by question index (`"0"`,
 * `"1"`, …; a question left out or answered with blank text counts as unanswered), or `{ cancelled: true }` when
 * the user dismissed the questions.
 */
export type AskUserResponse = { answers: Record<string, string> } | { cancelled: true };

/**
 * Asks a human the model's `ask_user` questions. It may take as long as it needs; `signal` fires when the stream
 * is aborted (or the tool's time limit passes), and the call is then cancelled whatever the handler answers. A
 * throw or an answer of the wrong shape is told to the model as the call's error.
 */
export type AskUserHandler = (
  request: AskUserRequest,
  options: { signal: AbortSignal },
) => AskUserResponse | Promise<AskUserResponse>;

/** gemini-cli's tool name. */
export const ASK_USER_TOOL_NAME = 'ask_user';

const DESCRIPTION =
  'Ask the user one or more questions to gather preferences, clarify requirements, or make decisions.';

/** gemini-cli 0.61's declaration (`default-legacy` tool set). */
const PARAMETERS: Record<string, unknown> = {
  type: 'object',
  required: ['questions'],
  properties: {
    questions: {
      type: 'array',
      minItems: 1,
      maxItems: 4,
      items: {
        type: 'object',
        required: ['question', 'header', 'type'],
        properties: {
          question: {
            type: 'string',
            description:
              'The complete question to ask the user. Should be clear, specific, and end with a question mark.',
          },
          header: {
            type: 'string',
            description:
              'Very short label displayed as a chip/tag. Use abbreviations: "Auth" not "Authentication", "Config" not "Configuration". Examples: "Auth method", "Library", "Approach", "Database".',
          },
          type: {
            type: 'string',
            enum: ['choice', 'text', 'yesno'],
            default: 'choice',
            description:
              "Question type: 'choice' (default) for multiple-choice with options, 'text' for free-form input, 'yesno' for Yes/No confirmation with optional 'Other' feedback.",
          },
          options: {
            type: 'array',
            description:
              "The selectable choices for 'choice' type questions. Provide 2-4 options. An 'Other' option is automatically added for 'choice' and 'yesno' types. Not needed for 'text' or 'yesno'.",
            items: {
              type: 'object',
              required: ['label', 'description'],
              properties: {
                label: {
                  type: 'string',
                  description: 'The display text for this option (1-5 words). Example: "OAuth 2.0"',
                },
                description: {
                  type: 'string',
                  description:
                    'Brief explanation of this option. Example: "Industry standard, supports SSO"',
                },
              },
            },
          },
          multiSelect: {
            type: 'boolean',
            description:
              "Only applies when type='choice'. Set to true to allow selecting multiple options.",
          },
          placeholder: {
            type: 'string',
            description:
              "Hint text shown in the input field. For type='text', shown in the main input. For type='choice' and 'yesno', shown in the 'Other' custom input.",
          },
        },
      },
    },
  },
};

/** gemini-cli's checks after the schema passed (`validateToolParamValues`), with its messages. */
function checkQuestions(questions: readonly AskUserQuestion[]): string | null {
  if (questions.length === 0) return 'At least one question is required.';
  for (const [i, q] of questions.entries()) {
    if (q.type === 'choice') {
      if (!q.options || q.options.length < 2) {
        return `Question ${i + 1}: type='choice' requires 'options' array with 2-4 items.`;
      }
      if (q.options.length > 4) {
        return `Question ${i + 1}: 'options' array must have at most 4 items.`;
      }
    }
    for (const [j, opt] of (q.options ?? []).entries()) {
      if (typeof opt.label !== 'string' || !opt.label.trim()) {
        return `Question ${i + 1}, option ${j + 1}: 'label' is required and must be a non-empty string.`;
      }
      if (typeof opt.description !== 'string') {
        return `Question ${i + 1}, option ${j + 1}: 'description' is required and must be a string.`;
      }
    }
  }
  return null;
}

/** gemini-cli turns the literal `\n` models sometimes write into line breaks. */
function unescape(text: string): string {
  return text.replace(/\\r\\n/g, '\n').replace(/\\n/g, '\n');
}

/** The questions as the handler gets them (gemini-cli's normalisation, unknown fields dropped). */
function normalize(questions: readonly AskUserQuestion[]): AskUserQuestion[] {
  return questions.map((q) => ({
    question: unescape(q.question),
    header: unescape(q.header),
    type: q.type,
    ...(q.options
      ? {
          options: q.options.map((opt) => ({
            label: unescape(opt.label),
            description: opt.description.trim() ? unescape(opt.description.trim()) : '',
          })),
        }
      : {}),
    ...(q.multiSelect === undefined ? {} : { multiSelect: q.multiSelect }),
    ...(q.placeholder ? { placeholder: unescape(q.placeholder) } : {}),
  }));
}

const HandlerAnswer = z.union([
  z.object({ cancelled: z.literal(true) }).strict(),
  z
    .object({ answers: z.record(z.string(), z.string()), cancelled: z.literal(false).optional() })
    .strict(),
]);

/** The handler's answer checked against the questions; a string says what is wrong with it. */
function readAnswer(
  value: unknown,
  count: number,
): { cancelled: true } | { answers: Record<string, string> } | string {
  const parsed = HandlerAnswer.safeParse(value);
  const shape =
    'it must return { answers: { "<question index>": "<answer>" } } or { cancelled: true }';
  if (!parsed.success) return `onAskUser returned ${describe(value)}; ${shape}.`;
  if ('cancelled' in parsed.data && parsed.data.cancelled) return { cancelled: true };
  const answers: Record<string, string> = {};
  for (const [key, answer] of Object.entries(
    (parsed.data as { answers: Record<string, string> }).answers,
  )) {
    const index = /^(0|[1-9]\d*)$/.test(key) ? Number(key) : NaN;
    if (!(index < count)) {
      return `onAskUser answered question ${JSON.stringify(key)}, but there ${count === 1 ? 'is 1 question' : `are ${count} questions`} (keys "0" to "${count - 1}"); ${shape}.`;
    }
    if (answer.trim() !== '') answers[String(index)] = answer;
  }
  return { answers };
}

function describe(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text === undefined) return String(value);
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return String(value);
  }
}

/** gemini-cli's display of the answers: `**User answered:**` then `  <header> → <answer>` lines. */
function answersDisplay(
  questions: readonly AskUserQuestion[],
  answers: Record<string, string>,
): string {
  const entries = Object.entries(answers);
  if (entries.length === 0) return 'User submitted without answering questions.';
  const lines = entries.map(([index, answer]) => {
    const prefix = `  ${questions[Number(index)]?.header ?? `Q${index}`} → `;
    return prefix + answer.split('\n').join('\n' + ' '.repeat(prefix.length));
  });
  return `**User answered:**\n${lines.join('\n')}`;
}

/**
 * gemini-cli's `ask_user` (Ask User, kind communicate — `other` here): the model asks the user up to 4 questions
 * (choice, text or yes/no) and gets `{"answers":{"0":"…"}}` back, or gemini-cli's "User dismissed ask_user dialog
 * without answering." when the user cancels. The questions go to `ask`; the agent offers this tool only when it
 * has such a handler (`onAskUser`).
 */
export function createAskUserTool(ask: AskUserHandler): AgentTool {
  let schemaCheck: ((args: unknown) => string | null) | undefined;
  const validate = (args: Record<string, unknown>): string | null => {
    schemaCheck ??= compileArgumentsCheck(PARAMETERS) ?? (() => null);
    return schemaCheck(args) ?? checkQuestions(args['questions'] as AskUserQuestion[]);
  };
  return {
    name: ASK_USER_TOOL_NAME,
    displayName: 'Ask User',
    kind: 'other',
    description: DESCRIPTION,
    parametersJsonSchema: PARAMETERS,
    validate(args) {
      const error = validate(args);
      return error === null ? { ok: true, args } : { ok: false, error };
    },
    describe(args) {
      const questions = Array.isArray(args['questions']) ? (args['questions'] as unknown[]) : [];
      const texts = questions.map((q) =>
        typeof q === 'object' && q !== null ? String((q as { question?: unknown }).question) : '',
      );
      return `Asking user: ${texts.join(', ')}`;
    },
    async execute(args, ctx, call): Promise<ToolResult> {
      const invalid = validate(args);
      if (invalid !== null) {
        return { ...errorResult(invalid, 'invalid_tool_params'), returnDisplay: '' };
      }
      const questions = normalize(args['questions'] as AskUserQuestion[]);
      let value: unknown;
      try {
        value = await raceAbort(
          Promise.resolve().then(() =>
            ask(
              { sessionId: ctx.sessionId, callId: call.callId, questions },
              { signal: call.signal },
            ),
          ),
          call.signal,
        );
      } catch (error) {
        if (call.signal.aborted) throw error;
        const message = error instanceof Error ? error.message : String(error);
        return errorResult(
          `Could not ask the user: the onAskUser handler failed: ${message}`,
          'execution_failed',
        );
      }
      const answer = readAnswer(value, questions.length);
      if (typeof answer === 'string') {
        call.emit?.({
          type: 'warning',
          value: { code: 'ASK_USER_BAD_ANSWER', message: answer, source: ASK_USER_TOOL_NAME },
        });
        return errorResult(`Could not ask the user: ${answer}`, 'execution_failed');
      }
      if ('cancelled' in answer) {
        return {
          llmContent: 'User dismissed ask_user dialog without answering.',
          returnDisplay: 'User dismissed dialog',
        };
      }
      return {
        llmContent: JSON.stringify({ answers: answer.answers }),
        returnDisplay: answersDisplay(questions, answer.answers),
      };
    },
  };
}
