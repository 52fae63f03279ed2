import type { FunctionCall } from '@google/genai';
import type { ToolCallInput } from '../tools/tool-call.js';
import type { CallIdFactory } from './call-ids.js';

/** The name gemini-cli gives a function call that arrived without one. */
export const UNNAMED_CALL = 'generic_tool';

/**
 * Normalises one functionCall from the model: trims the name (an empty name becomes `generic_tool` and is
 * answered with an error), parses string arguments as JSON (an unparsable string or a non-object is answered
 * with an error), and assigns the call id. Returns the scheduler input and the functionCall to keep in history
 * (named, with object args and the call id).
 */
export function normalizeFunctionCall(
  call: FunctionCall,
  ids: CallIdFactory,
  promptId: string,
): { input: ToolCallInput; historyCall: FunctionCall } {
  const trimmed = typeof call.name === 'string' ? call.name.trim() : '';
  const name = trimmed === '' ? UNNAMED_CALL : trimmed;
  const callId = ids.next(name, typeof call.id === 'string' ? call.id : undefined);
  let malformed: ToolCallInput['malformed'];
  if (trimmed === '') {
    malformed = {
      message:
        'The function call had no name, so no tool was run. Call a tool by its declared name.',
      type: 'tool_not_registered',
    };
  }
  const parsed = parseArgs(call.args as unknown);
  if (!parsed.ok && !malformed) {
    malformed = {
      message: `Invalid arguments for tool "${name}": ${parsed.error}`,
      type: 'invalid_tool_params',
    };
  }
  const args = parsed.ok ? parsed.args : {};
  return {
    input: {
      request: { callId, name, args, isClientInitiated: false, prompt_id: promptId },
      ...(malformed ? { malformed } : {}),
    },
    historyCall: { ...call, id: callId, name, args },
  };
}

function parseArgs(
  raw: unknown,
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  if (raw === undefined || raw === null) return { ok: true, args: {} };
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { ok: true, args: {} };
    try {
      value = JSON.parse(raw);
    } catch (err) {
      return {
        ok: false,
        error: `the arguments were a string that is not valid JSON (${(err as Error).message}). Send the arguments as a JSON object.`,
      };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'the arguments must be a JSON object.' };
  }
  return { ok: true, args: value as Record<string, unknown> };
}
