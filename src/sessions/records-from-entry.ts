import { plainClone } from '../core/plain-clone.js';
import type { GenerateContentResponseUsageMetadata, Part } from '@google/genai';
import { InternalError } from '../errors.js';
import { visibleText } from '../model/stream-validator.js';
import type { ToolCallResponseInfo } from '../events.js';
import {
  inMessageRecordOrder,
  SESSION_FORMAT_VERSION,
  type MessageRecord,
  type PartRecord,
  type SessionRecord,
  type ThoughtRecord,
  type TokensSummary,
  type ToolCallRecord,
} from './records.js';
import type { SessionLogEntry, SessionNote, ToolCallApproval } from '../core/session-log.js';

/** What the writer remembers between entries: the last model message, to attach its tool calls' results. */
export interface RecordWriterState {
  /** The last `gemini` message written (or loaded), while its tool results may still come. */
  lastModelMessage: MessageRecord | undefined;
}

/** gemini-cli's token mapping (`recordMessageTokens`). */
export function tokensFromUsage(
  usage: GenerateContentResponseUsageMetadata | undefined,
): TokensSummary | null {
  if (usage === undefined) return null;
  return {
    input: usage.promptTokenCount ?? 0,
    output: usage.candidatesTokenCount ?? 0,
    cached: usage.cachedContentTokenCount ?? 0,
    thoughts: usage.thoughtsTokenCount ?? 0,
    tool: usage.toolUsePromptTokenCount ?? 0,
    total: usage.totalTokenCount ?? 0,
  };
}

/** Thought summaries (`**subject** description`) of the thought parts of a model turn. */
export function thoughtsFromParts(parts: readonly Part[], timestamp: string): ThoughtRecord[] {
  const out: ThoughtRecord[] = [];
  for (const p of parts) {
    if (p.thought !== true || typeof p.text !== 'string') continue;
    const match = /^\s*\*\*(.+?)\*\*\s*([\s\S]*)$/.exec(p.text);
    out.push({
      subject: match?.[1]?.trim() ?? '',
      description: (match?.[2] ?? p.text).trim(),
      timestamp,
    });
  }
  return out;
}

function statusOf(response: ToolCallResponseInfo): string {
  if (response.error === undefined) return 'success';
  const type = response.error.type;
  if (type === 'cancelled' || type === 'interrupted') return 'cancelled';
  return response.error.message.startsWith('[Operation Cancelled]') ? 'cancelled' : 'error';
}

/** Splits a function-response turn into per-call responses (used when the loop did not pass them). */
export function responsesFromParts(parts: readonly Part[]): ToolCallResponseInfo[] {
  const out: ToolCallResponseInfo[] = [];
  for (const part of parts) {
    const fr = part.functionResponse;
    if (fr !== undefined) {
      const response = fr.response as Record<string, unknown> | undefined;
      const error = response?.['error'];
      out.push({
        callId: fr.id ?? '',
        name: fr.name ?? '',
        responseParts: [part],
        ...(typeof error === 'string' ? { error: { message: error } } : {}),
      });
    } else if (out.length > 0) {
      out[out.length - 1]?.responseParts.push(part);
    }
  }
  return out;
}

function callArgs(model: MessageRecord, callId: string): Record<string, unknown> {
  for (const p of model.sdkParts ?? []) {
    const fc = (p as Part).functionCall;
    if (fc !== undefined && fc.id === callId) return fc.args ?? {};
  }
  return model.toolCalls?.find((tc) => tc.id === callId)?.args ?? {};
}

/**
 * What gemini-cli stores as a finished call's `resultDisplay`: the `FileDiff` of a file change, else the display
 * text (the error message of a failed call; the output string when a response has no display text).
 */
function displayOf(r: ToolCallResponseInfo): unknown {
  if (r.error === undefined && r.fileDiff !== undefined) return r.fileDiff;
  if (r.resultDisplay !== undefined) return r.resultDisplay;
  if (r.error !== undefined) return r.error.message;
  const output = r.responseParts[0]?.functionResponse?.response?.['output'];
  return typeof output === 'string' ? output : undefined;
}

/**
 * gemini-cli's `ToolCallRecord` for one finished call, fields in the schema's order (see {@link recordsFromEntry}):
 * `result` holds the call's response parts, as gemini-cli's CLI records them. (gemini's own resume then sends them twice — once from `result`, once
 * from the function-response message — and so it does for a file we wrote; our reader answers each call once.)
 */
function toolCallRecord(
  model: MessageRecord,
  r: ToolCallResponseInfo,
  timestamp: string,
  approval: ToolCallApproval | undefined,
): ToolCallRecord {
  const display = displayOf(r);
  return {
    id: r.callId,
    name: r.name,
    args: callArgs(model, r.callId),
    result: plainClone(r.responseParts) as ToolCallRecord['result'],
    status: statusOf(r),
    timestamp,
    displayName: r.displayName ?? r.name,
    description: r.description ?? '',
    ...(display !== undefined ? { resultDisplay: plainClone(display) } : {}),
    renderOutputAsMarkdown: r.renderOutputAsMarkdown ?? true,
    ...(approval === undefined ? {} : { sdkApproval: { ...approval } }),
  };
}

/**
 * gemini-cli's `content` of a model message: the visible text of the turn (thoughts left out, zero-width
 * characters and HTML comments removed, trimmed); `""` for a turn that only called tools.
 */
export function modelMessageText(parts: readonly Part[]): string {
  return visibleText(
    parts
      .filter((p) => p.thought !== true && typeof p.text === 'string')
      .map((p) => p.text)
      .join(''),
  );
}

/** Merges new tool call records into existing ones by id (as gemini-cli's `recordToolCalls`). */
function mergeToolCalls(
  existing: ToolCallRecord[] | undefined,
  added: ToolCallRecord[],
): ToolCallRecord[] {
  const merged = [...(existing ?? [])];
  for (const record of added) {
    const index = merged.findIndex((tc) => tc.id === record.id);
    if (index === -1) merged.push(record);
    else merged[index] = { ...merged[index], ...record };
  }
  return merged;
}

/**
 * Maps one {@link SessionLogEntry} to the records to append, with gemini-cli's CLI field shapes:
 *
 * - `user` → a `type:"user"` message whose content is the turn's parts;
 * - `model` → a `type:"gemini"` message whose `content` is the visible text as a string (gemini-cli's), plus
 *   `thoughts`, `tokens`, `model`, and our `sdkParts`: the exact parts of the turn (thought signatures, the
 *   functionCall parts with their prefixed ids), which gemini-cli ignores and our reader uses;
 * - `tool_results` → the last model message again (same id, upserted in place) with `toolCalls` (args,
 *   `result` parts, status, `resultDisplay`, description, display name), then a `type:"user"` message with the
 *   functionResponse parts — gemini-cli's order. A crash between the two loses nothing: the reader answers the
 *   calls from `toolCalls[].result`.
 *
 * Each call's record ends with our `sdkApproval` (who decided about it, {@link ToolCallApproval}) when the entry has
 * one, a field gemini-cli ignores.
 *
 * Each message ends with `{"$set":{"lastUpdated":…}}` as gemini-cli's `recordMessage` does. Every message carries
 * `sdkFormat` (a field gemini-cli ignores), which tells the reader that this SDK wrote it.
 *
 * Fields are written in the order of the record schemas (`MessageRecord`, `ToolCallRecord`, …), the fields they do
 * not name last: the reader then keeps each parsed line as its record instead of copying it (goal P4; see
 * `kept-message-record.ts`). gemini-cli reads any order.
 */
export function recordsFromEntry(
  entry: SessionLogEntry,
  state: RecordWriterState,
  newId: () => string,
): SessionRecord[] {
  const parts = plainClone(entry.content.parts ?? []);
  const base = { id: newId(), timestamp: entry.timestamp };
  const format = { sdkFormat: SESSION_FORMAT_VERSION };
  const records: SessionRecord[] = [];
  switch (entry.kind) {
    case 'user':
      records.push({
        ...base,
        type: 'user',
        content: parts as MessageRecord['content'],
        ...format,
      });
      state.lastModelMessage = undefined;
      break;
    case 'model': {
      const message: MessageRecord = {
        ...base,
        type: 'gemini',
        content: modelMessageText(parts),
        thoughts: thoughtsFromParts(parts, entry.timestamp),
        tokens: tokensFromUsage(entry.usage),
        ...(entry.model !== undefined ? { model: entry.model } : {}),
        ...format,
        sdkParts: parts as PartRecord[],
        ...(entry.interrupted === true ? { interrupted: true } : {}),
      };
      records.push(message);
      state.lastModelMessage = message;
      break;
    }
    case 'tool_results': {
      const model = state.lastModelMessage;
      if (model !== undefined) {
        const responses = entry.responses ?? responsesFromParts(parts);
        const added = responses.map((r) =>
          toolCallRecord(model, r, entry.timestamp, entry.approvals?.[r.callId]),
        );
        const updated = inMessageRecordOrder({
          ...model,
          toolCalls: mergeToolCalls(model.toolCalls, added),
        });
        records.push(updated);
        state.lastModelMessage = updated;
      }
      records.push({
        ...base,
        type: 'user',
        content: parts as MessageRecord['content'],
        ...format,
      });
      break;
    }
    default: {
      const never: never = entry.kind;
      throw new InternalError(`Unknown session entry kind: ${String(never)}`);
    }
  }
  records.push({ $set: { lastUpdated: entry.timestamp } });
  return records;
}

/**
 * The records of a {@link SessionNote}: gemini-cli's display line (`type` info/warning/error, `content` the text,
 * which gemini-cli shows and leaves out of the history) with the facts in `sdkEvent`, then the `$set` of
 * `lastUpdated`.
 */
export function recordsFromNote(note: SessionNote, newId: () => string): SessionRecord[] {
  return [
    {
      id: newId(),
      timestamp: note.timestamp,
      type: note.level,
      content: note.text,
      sdkFormat: SESSION_FORMAT_VERSION,
      sdkEvent: plainClone(note.event),
    },
    { $set: { lastUpdated: note.timestamp } },
  ];
}
