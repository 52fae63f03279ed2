import type { MessageRecord, SessionMetadataRecord, ToolCallRecord } from '../sessions/records.js';
import { estimateCost } from './model-prices.js';
import { approvalOf, decisionOf, displayLine, MAX_RESULT, millisBetween } from './stored-facts.js';
import type {
  TimelineItem,
  TimelineModelCall,
  TimelineToolCall,
  TimelineTotals,
  TimelineTurn,
  TimelineView,
} from './timeline-types.js';

type PartLike = Record<string, unknown>;

/** A session's stored form (what a `SessionStore` loads). */
export interface SessionRecords {
  metadata: SessionMetadataRecord;
  messages: readonly MessageRecord[];
}

/** Loads a subagent's session by its id (gemini-cli's `agentId`), if it can be found. */
export type SubagentLoader = (agentId: string) => Promise<SessionRecords | undefined>;

function parts(content: MessageRecord['content'] | undefined): PartLike[] {
  if (content === undefined) return [];
  const list = Array.isArray(content) ? content : [content];
  return list.map((p) => (typeof p === 'string' ? { text: p } : (p as PartLike)));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(list: PartLike[]): string {
  return list
    .filter((p) => typeof p['text'] === 'string' && p['thought'] !== true)
    .map((p) => p['text'] as string)
    .join('');
}

function cut(text: string): string {
  return text.length <= MAX_RESULT
    ? text
    : `${text.slice(0, MAX_RESULT)}\n…[cut: ${text.length} characters in all]`;
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The result text and error of a functionResponse's `response` object. */
function responseText(response: unknown): {
  result: string | undefined;
  error: string | undefined;
} {
  if (!isObject(response)) return { result: undefined, error: undefined };
  const error = response['error'];
  if (error !== undefined) {
    const message =
      isObject(error) && typeof error['message'] === 'string' ? error['message'] : error;
    return { result: undefined, error: cut(stringify(message)) };
  }
  const output = response['output'];
  return { result: cut(stringify(output ?? response)), error: undefined };
}

function answer(call: TimelineToolCall, response: unknown, at: string | undefined): void {
  const { result, error } = responseText(response);
  call.result = result;
  call.error = error;
  if (call.status === 'pending') call.status = error === undefined ? 'success' : 'error';
  call.durationMs ??= millisBetween(call.timestamp, at);
}

function fromRecord(record: ToolCallRecord, call: TimelineToolCall | undefined): TimelineToolCall {
  const merged: TimelineToolCall = call ?? {
    kind: 'tool',
    id: record.id,
    name: record.name,
    args: record.args,
    status: 'pending',
    decision: 'pending',
    approval: undefined,
    timestamp: record.timestamp,
    durationMs: undefined,
    result: undefined,
    error: undefined,
    subagent: undefined,
  };
  if (Object.keys(merged.args).length === 0) merged.args = record.args;
  merged.status = record.status;
  merged.approval = approvalOf(record) ?? merged.approval;
  const stored = parts(record.result ?? undefined).find((p) => isObject(p['functionResponse']));
  if (stored !== undefined) {
    answer(merged, (stored['functionResponse'] as PartLike)['response'], record.timestamp);
  }
  if (
    merged.result === undefined &&
    merged.error === undefined &&
    record.resultDisplay !== undefined
  ) {
    const display = cut(stringify(record.resultDisplay));
    if (record.status === 'error') merged.error = display;
    else merged.result = display;
  }
  return merged;
}

function emptyTotals(): TimelineTotals {
  return {
    turns: 0,
    modelCalls: 0,
    toolCalls: 0,
    errors: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    thoughtTokens: 0,
    costUsd: 0,
    unpricedCalls: 0,
    retries: 0,
    compressions: 0,
  };
}

function modelCall(
  message: MessageRecord,
  list: PartLike[],
  previous: string | undefined,
): TimelineModelCall {
  const t = message.tokens ?? undefined;
  const tokens =
    t === undefined
      ? undefined
      : {
          input: t.input,
          output: t.output,
          cached: t.cached,
          thoughts: t.thoughts ?? 0,
          total: t.total,
        };
  const thoughts = (message.thoughts ?? []).map((th) => ({
    subject: th.subject,
    description: th.description,
  }));
  return {
    kind: 'model',
    id: message.id,
    timestamp: message.timestamp,
    model: message.model,
    latencyMs: millisBetween(previous, message.timestamp),
    tokens,
    costUsd: tokens === undefined ? undefined : estimateCost(message.model, tokens),
    text: textOf(list),
    thoughts,
    interrupted: (message as { interrupted?: unknown }).interrupted === true,
  };
}

/**
 * Turns a stored session (gemini-cli's records, or this SDK's) into the viewer's timeline: one turn per prompt,
 * each with its model calls (latency, tokens, estimated cost, thoughts) and tool calls (arguments, result or
 * error, who decided), and gemini-cli's info/warning/error lines. Subagent calls get their own timeline when
 * `loadSubagent` finds their session.
 */
export async function buildTimeline(
  session: SessionRecords,
  loadSubagent?: SubagentLoader,
): Promise<TimelineView> {
  const totals = emptyTotals();
  const turns: TimelineTurn[] = [];
  const calls = new Map<string, TimelineToolCall>();
  let turn: TimelineTurn | undefined;
  let previous: string | undefined;
  /** Notes seen before the first prompt, shown in the turn that follows. */
  const waiting: TimelineItem[] = [];
  const openTurn = (id: string, timestamp: string | undefined, prompt: string): TimelineTurn => {
    const created: TimelineTurn = {
      id,
      index: turns.length + 1,
      timestamp,
      prompt,
      durationMs: undefined,
      items: [],
    };
    created.items.push(...waiting.splice(0));
    turns.push(created);
    return created;
  };
  for (const message of session.messages) {
    // A model message this SDK wrote keeps its exact parts (function calls included) in sdkParts (format 2);
    // its content is only the visible text, as gemini-cli writes it.
    const list =
      message.type === 'gemini' && message.sdkParts !== undefined
        ? parts(message.sdkParts as MessageRecord['content'])
        : parts(message.content);
    if (message.type === 'user') {
      const responses = list.filter((p) => isObject(p['functionResponse']));
      if (responses.length > 0) {
        for (const part of responses) {
          const fr = part['functionResponse'] as PartLike;
          const call = typeof fr['id'] === 'string' ? calls.get(fr['id']) : undefined;
          if (call !== undefined) answer(call, fr['response'], message.timestamp);
        }
      } else {
        const text = textOf(list);
        const injected = /^\s*<session_context>/.test(text);
        const command = /^\/[a-z]/i.test(text.trim()) && !text.includes('\n');
        if (injected || command) {
          const note: TimelineItem = {
            kind: 'note',
            id: message.id,
            level: 'info',
            timestamp: message.timestamp,
            text: injected
              ? 'Session context sent with the first prompt'
              : `Command ${text.trim()}`,
          };
          if (turn === undefined) waiting.push(note);
          else turn.items.push(note);
        } else {
          turn = openTurn(message.id, message.timestamp, text);
        }
      }
      previous = message.timestamp ?? previous;
    } else if (message.type === 'gemini') {
      turn ??= openTurn(message.id, message.timestamp, '');
      const call = modelCall(message, list, previous);
      turn.items.push(call);
      for (const part of list) {
        const fc = part['functionCall'];
        if (!isObject(fc) || typeof fc['name'] !== 'string') continue;
        const id = typeof fc['id'] === 'string' ? fc['id'] : `${fc['name']}#${calls.size}`;
        if (calls.has(id)) continue;
        const tool: TimelineToolCall = {
          kind: 'tool',
          id,
          name: fc['name'],
          args: isObject(fc['args']) ? fc['args'] : {},
          status: 'pending',
          decision: 'pending',
          approval: undefined,
          timestamp: message.timestamp,
          durationMs: undefined,
          result: undefined,
          error: undefined,
          subagent: undefined,
        };
        calls.set(id, tool);
        turn.items.push(tool);
      }
      for (const record of message.toolCalls ?? []) {
        const known = calls.get(record.id);
        const merged = fromRecord(record, known);
        if (known === undefined) {
          calls.set(record.id, merged);
          turn.items.push(merged);
        }
        if (
          record.agentId !== undefined &&
          loadSubagent !== undefined &&
          merged.subagent === undefined
        ) {
          const sub = await loadSubagent(record.agentId);
          if (sub !== undefined) merged.subagent = await buildTimeline(sub, loadSubagent);
        }
      }
      previous = message.timestamp ?? previous;
    } else {
      turn ??= openTurn(message.id, message.timestamp, '');
      turn.items.push(displayLine(message, textOf(list)));
    }
  }
  if (waiting.length > 0) openTurn(waiting[0]?.id ?? 'notes', waiting[0]?.timestamp, '');
  for (const t of turns) {
    let last = t.timestamp;
    for (const item of t.items) {
      if (item.kind === 'model') {
        totals.modelCalls += 1;
        if (item.tokens !== undefined) {
          totals.inputTokens += item.tokens.input;
          totals.outputTokens += item.tokens.output;
          totals.cachedTokens += item.tokens.cached;
          totals.thoughtTokens += item.tokens.thoughts;
        }
        if (item.costUsd !== undefined) totals.costUsd += item.costUsd;
        else if (item.tokens !== undefined) totals.unpricedCalls += 1;
      } else if (item.kind === 'tool') {
        totals.toolCalls += 1;
        item.decision = decisionOf(item.status, item.error, item.approval);
        if (item.error !== undefined) totals.errors += 1;
      } else if (item.kind === 'retry') totals.retries += 1;
      else if (item.kind === 'compression') totals.compressions += 1;
      else if (item.level === 'error') totals.errors += 1;
      last = item.timestamp ?? last;
    }
    t.durationMs = millisBetween(t.timestamp, last);
  }
  totals.turns = turns.length;
  return {
    sessionId: session.metadata.sessionId,
    kind: session.metadata.kind ?? 'main',
    startTime: session.metadata.startTime,
    lastUpdated: session.metadata.lastUpdated,
    summary: session.metadata.summary,
    totals,
    turns,
  };
}
