/**
 * Hand-written checks of the common shapes of message and `$set` records, for resuming long sessions (goal P4 in
 * docs/benchmarks.md: a 10,000-message file is about 22,000 lines, and validating each with zod was the largest
 * share of a resume). Each accepts only records its zod schema accepts and builds the same output: the shape's
 * keys first, in the schema's order, with its defaults (`content: ''`, `args: {}`), then the unknown keys in input
 * order; parts are kept by reference. Anything unusual — a wrong type, `undefined`, a `__proto__` key, an object
 * that is not a plain object — returns undefined, and the caller falls back to the zod schema, which decides and
 * reports. `src/sessions/record-fast-path.test.ts` checks both against each other.
 *
 * `kept-message-record.ts` goes one step further for a freshly parsed line already in that form (this SDK writes
 * its records in the schemas' order): it only checks, and the parsed object itself becomes the record.
 */

/** A plain JSON object. */
export type Plain = Record<string, unknown>;

/** The `type`s `MessageRecord` accepts. */
export const MESSAGE_TYPES: ReadonlySet<string> = new Set([
  'user',
  'gemini',
  'info',
  'error',
  'warning',
]);

/** Marks a value the fast path does not decide (the zod schema does). */
const NO = Symbol('not decided here');

/** A plain object (prototype `Object.prototype`), as `JSON.parse` builds. */
export function isPlain(value: unknown): value is Plain {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype;
}

/** A `PartRecord`: any object that is not an array. */
export const isPart = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `PartListRecord`: a string, one part (kept), or a list of strings and parts (a new list, as zod returns). */
function partList(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) if (typeof item !== 'string' && !isPart(item)) return NO;
    return [...value];
  }
  return isPart(value) ? value : NO;
}

/** A finite number (what `z.number()` accepts). */
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/*
 * Each shape below is checked by one hand-written function (not a table-driven one: a resume runs ~20,000 records
 * through these while the code is still cold, and one generic loop over field tables was most of its time). Each
 * first sorts the input's own keys into the shape's fields and the unknown ones (a `__proto__` key, or an unknown
 * key holding `undefined`, is left to zod), then checks the present fields and writes the output: the shape's keys
 * in the schema's order, then the unknown keys in input order.
 */

/** Copies the unknown keys of `input` onto `out`; false when one holds `undefined` (zod decides then). */
export function copyUnknown(input: Plain, unknown: string[] | undefined, out: Plain): boolean {
  if (unknown === undefined) return true;
  for (const key of unknown) {
    const value = input[key];
    if (value === undefined) return false;
    out[key] = value;
  }
  return true;
}

/** `z.record(z.string(), z.unknown())`: a plain object without `undefined` values, copied. */
function args(value: unknown): unknown {
  if (!isPlain(value)) return NO;
  const out: Plain = {};
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined || key === '__proto__') return NO;
    out[key] = v;
  }
  return out;
}

// Field bits of a tool call, in `ToolCallRecord`'s order.
const TC_ID = 1;
const TC_NAME = 2;
const TC_ARGS = 4;
const TC_RESULT = 8;
const TC_STATUS = 16;
const TC_TIMESTAMP = 32;
const TC_AGENT = 64;
const TC_DISPLAY_NAME = 128;
const TC_DESCRIPTION = 256;
const TC_RESULT_DISPLAY = 512;
const TC_MARKDOWN = 1024;

function toolCall(input: unknown): unknown {
  if (!isPlain(input)) return NO;
  let has = 0;
  let unknown: string[] | undefined;
  for (const key of Object.keys(input)) {
    switch (key) {
      case 'id':
        has |= TC_ID;
        break;
      case 'name':
        has |= TC_NAME;
        break;
      case 'args':
        has |= TC_ARGS;
        break;
      case 'result':
        has |= TC_RESULT;
        break;
      case 'status':
        has |= TC_STATUS;
        break;
      case 'timestamp':
        has |= TC_TIMESTAMP;
        break;
      case 'agentId':
        has |= TC_AGENT;
        break;
      case 'displayName':
        has |= TC_DISPLAY_NAME;
        break;
      case 'description':
        has |= TC_DESCRIPTION;
        break;
      case 'resultDisplay':
        has |= TC_RESULT_DISPLAY;
        break;
      case 'renderOutputAsMarkdown':
        has |= TC_MARKDOWN;
        break;
      case '__proto__':
        return NO;
      default:
        (unknown ??= []).push(key);
    }
  }
  const { id, name, status } = input;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof status !== 'string') return NO;
  const out: Plain = { id, name };
  if ((has & TC_ARGS) !== 0) {
    const a = args(input['args']);
    if (a === NO) return NO;
    out['args'] = a;
  } else out['args'] = {};
  if ((has & TC_RESULT) !== 0) {
    const r = input['result'];
    const mapped = r === null ? null : partList(r);
    if (mapped === NO) return NO;
    out['result'] = mapped;
  }
  out['status'] = status;
  if ((has & (TC_TIMESTAMP | TC_AGENT | TC_DISPLAY_NAME | TC_DESCRIPTION)) !== 0) {
    for (const key of ['timestamp', 'agentId', 'displayName', 'description'] as const) {
      if (!Object.prototype.hasOwnProperty.call(input, key)) continue;
      const v = input[key];
      if (typeof v !== 'string') return NO;
      out[key] = v;
    }
  }
  if ((has & TC_RESULT_DISPLAY) !== 0) {
    const v = input['resultDisplay'];
    if (v === undefined) return NO;
    out['resultDisplay'] = v;
  }
  if ((has & TC_MARKDOWN) !== 0) {
    const v = input['renderOutputAsMarkdown'];
    if (typeof v !== 'boolean') return NO;
    out['renderOutputAsMarkdown'] = v;
  }
  return copyUnknown(input, unknown, out) ? out : NO;
}

function thought(input: unknown): unknown {
  if (!isPlain(input)) return NO;
  let hasTimestamp = false;
  let unknown: string[] | undefined;
  for (const key of Object.keys(input)) {
    switch (key) {
      case 'subject':
      case 'description':
        break;
      case 'timestamp':
        hasTimestamp = true;
        break;
      case '__proto__':
        return NO;
      default:
        (unknown ??= []).push(key);
    }
  }
  const { subject, description } = input;
  if (typeof subject !== 'string' || typeof description !== 'string') return NO;
  const out: Plain = { subject, description };
  if (hasTimestamp) {
    const timestamp = input['timestamp'];
    if (typeof timestamp !== 'string') return NO;
    out['timestamp'] = timestamp;
  }
  return copyUnknown(input, unknown, out) ? out : NO;
}

function tokens(input: unknown): unknown {
  if (input === null) return null;
  if (!isPlain(input)) return NO;
  let hasThoughts = false;
  let hasTool = false;
  let unknown: string[] | undefined;
  for (const key of Object.keys(input)) {
    switch (key) {
      case 'input':
      case 'output':
      case 'cached':
      case 'total':
        break;
      case 'thoughts':
        hasThoughts = true;
        break;
      case 'tool':
        hasTool = true;
        break;
      case '__proto__':
        return NO;
      default:
        (unknown ??= []).push(key);
    }
  }
  const { input: i, output, cached, total } = input;
  if (!isNum(i) || !isNum(output) || !isNum(cached) || !isNum(total)) return NO;
  const out: Plain = { input: i, output, cached };
  if (hasThoughts) {
    const v = input['thoughts'];
    if (!isNum(v)) return NO;
    out['thoughts'] = v;
  }
  if (hasTool) {
    const v = input['tool'];
    if (!isNum(v)) return NO;
    out['tool'] = v;
  }
  out['total'] = total;
  return copyUnknown(input, unknown, out) ? out : NO;
}

function list(value: unknown, item: (v: unknown) => unknown): unknown {
  if (!Array.isArray(value)) return NO;
  const out: unknown[] = [];
  for (const v of value) {
    const mapped = item(v);
    if (mapped === NO) return NO;
    out.push(mapped);
  }
  return out;
}

// Field bits of a message, in `MessageRecord`'s order (id and type are required, content has a default).
const M_TIMESTAMP = 1;
const M_CONTENT = 2;
const M_DISPLAY = 4;
const M_TOOL_CALLS = 8;
const M_THOUGHTS = 16;
const M_TOKENS = 32;
const M_MODEL = 64;
const M_SDK_FORMAT = 128;
const M_SDK_PARTS = 256;

/**
 * The `MessageRecord` that zod would return for `json`, built without zod; undefined when `json` is not in the
 * common shape (the caller then runs the schema).
 */
export function fastMessageRecord(json: unknown): Plain | undefined {
  if (!isPlain(json)) return undefined;
  let has = 0;
  let unknown: string[] | undefined;
  for (const key of Object.keys(json)) {
    switch (key) {
      case 'id':
      case 'type':
        break;
      case 'timestamp':
        has |= M_TIMESTAMP;
        break;
      case 'content':
        has |= M_CONTENT;
        break;
      case 'displayContent':
        has |= M_DISPLAY;
        break;
      case 'toolCalls':
        has |= M_TOOL_CALLS;
        break;
      case 'thoughts':
        has |= M_THOUGHTS;
        break;
      case 'tokens':
        has |= M_TOKENS;
        break;
      case 'model':
        has |= M_MODEL;
        break;
      case 'sdkFormat':
        has |= M_SDK_FORMAT;
        break;
      case 'sdkParts':
        has |= M_SDK_PARTS;
        break;
      case '__proto__':
        return undefined;
      default:
        (unknown ??= []).push(key);
    }
  }
  const { id, type } = json;
  if (typeof id !== 'string' || typeof type !== 'string' || !MESSAGE_TYPES.has(type))
    return undefined;
  const out: Plain = { id };
  if ((has & M_TIMESTAMP) !== 0) {
    const v = json['timestamp'];
    if (typeof v !== 'string') return undefined;
    out['timestamp'] = v;
  }
  out['type'] = type;
  if ((has & M_CONTENT) !== 0) {
    const v = partList(json['content']);
    if (v === NO || v === undefined) return undefined;
    out['content'] = v;
  } else out['content'] = '';
  if ((has & M_DISPLAY) !== 0) {
    const v = partList(json['displayContent']);
    if (v === NO || v === undefined) return undefined;
    out['displayContent'] = v;
  }
  if ((has & M_TOOL_CALLS) !== 0) {
    const v = list(json['toolCalls'], toolCall);
    if (v === NO) return undefined;
    out['toolCalls'] = v;
  }
  if ((has & M_THOUGHTS) !== 0) {
    const v = list(json['thoughts'], thought);
    if (v === NO) return undefined;
    out['thoughts'] = v;
  }
  if ((has & M_TOKENS) !== 0) {
    const v = tokens(json['tokens']);
    if (v === NO) return undefined;
    out['tokens'] = v;
  }
  if ((has & M_MODEL) !== 0) {
    const v = json['model'];
    if (typeof v !== 'string') return undefined;
    out['model'] = v;
  }
  if ((has & M_SDK_FORMAT) !== 0) {
    const v = json['sdkFormat'];
    if (!isNum(v)) return undefined;
    out['sdkFormat'] = v;
  }
  if ((has & M_SDK_PARTS) !== 0) {
    const v = json['sdkParts'];
    if (!Array.isArray(v)) return undefined;
    for (const part of v) if (!isPart(part)) return undefined;
    out['sdkParts'] = [...v];
  }
  return copyUnknown(json, unknown, out) ? out : undefined;
}

/** The string fields of a `$set`, in `SetRecord`'s order. */
const SET_STRING_KEYS = ['sessionId', 'projectHash', 'startTime', 'lastUpdated', 'summary'];
const SET_STRING_KNOWN = new Set(SET_STRING_KEYS);

/**
 * The `SetRecord` that zod would return for the common `{"$set": {"lastUpdated": "…"}}` (string fields only, no
 * other top-level key); undefined for anything else (the caller then runs the schema).
 */
export function fastSetRecord(json: unknown): { $set: Plain } | undefined {
  if (!isPlain(json)) return undefined;
  const set = json['$set'];
  if (!isPlain(set) || Object.keys(json).length !== 1) return undefined;
  const keys = Object.keys(set);
  for (const key of keys) {
    if (!SET_STRING_KNOWN.has(key) || typeof set[key] !== 'string') return undefined;
  }
  const out: Plain = {};
  for (const key of SET_STRING_KEYS) if (keys.includes(key)) out[key] = set[key];
  return { $set: out };
}
