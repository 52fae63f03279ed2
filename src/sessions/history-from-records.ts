import type { Content, Part } from '@google/genai';
import type { MessageRecord, PartListRecord, ToolCallRecord } from './records.js';

/** Text of the `error` sent to the model for a call whose process died before it returned a result. */
export function interruptedToolMessage(name: string): string {
  return (
    `Tool call interrupted: the session stopped before "${name}" returned a result, so whether it ran ` +
    `(and what it changed) is unknown. Check its effects before calling it again.`
  );
}

/** A function call of a model turn that no stored response answers. */
export interface UnansweredCall {
  /** The call id (as in the functionCall part; may be undefined in old gemini-cli files). */
  id: string | undefined;
  /** The tool name. */
  name: string;
}

/** The result of {@link rebuildHistory}. */
export interface RebuiltHistory {
  /** The history, valid for the API: every functionCall is answered by exactly one functionResponse. */
  history: Content[];
  /**
   * Set when the session's last message is a model turn whose calls never got results (the process died while
   * its tools ran). `history` already ends with `responseParts` (interrupted errors, or the results gemini-cli
   * kept in `toolCalls`); a writer appends them so the file itself becomes valid.
   */
  interruptedTail:
    { messageId: string; calls: UnansweredCall[]; responseParts: Part[] } | undefined;
}

function toParts(content: PartListRecord | undefined): Part[] {
  if (content === undefined || content === '') return [];
  if (typeof content === 'string') return [{ text: content }];
  if (Array.isArray(content))
    return content.map((p) => (typeof p === 'string' ? { text: p } : (p as Part)));
  return [content as Part];
}

/** gemini-cli's verbose `partListUnionToString`, enough to apply its "ignored user message" rule. */
function verboseText(parts: Part[]): string {
  return parts
    .map((p) => {
      if (p.functionCall !== undefined) return `[Function Call: ${p.functionCall.name ?? ''}]`;
      if (p.functionResponse !== undefined)
        return `[Function Response: ${p.functionResponse.name ?? ''}]`;
      if (p.inlineData !== undefined) return `<${p.inlineData.mimeType ?? ''}>`;
      if (p.fileData !== undefined) return '[File Data]';
      if (p.executableCode !== undefined) return '[Executable Code]';
      if (p.codeExecutionResult !== undefined) return '[Code Execution Result]';
      return p.text ?? '';
    })
    .join('');
}

/** gemini-cli's `isIgnoredUserContent`: empty, slash/`?` commands, and injected context turns. */
function isIgnoredUserText(text: string): boolean {
  const t = text.trim();
  return (
    t.length === 0 ||
    t.startsWith('/') ||
    t.startsWith('?') ||
    t.startsWith('<session_context>') ||
    t.startsWith('<hook_context>')
  );
}

function modelPartsFromCliMessage(msg: MessageRecord): Part[] {
  const content = toParts(msg.content);
  if (content.some((p) => p.functionCall !== undefined || p.thought === true)) return content;
  const parts: Part[] = [];
  for (const t of msg.thoughts ?? []) {
    parts.push({
      text: t.subject ? `**${t.subject}** ${t.description}` : t.description,
      thought: true,
    });
  }
  parts.push(...content);
  for (const call of msg.toolCalls ?? []) {
    parts.push({ functionCall: { id: call.id, name: call.name, args: call.args } });
  }
  return parts;
}

/** The exact parts of a model message this SDK wrote: `sdkParts` (format 2), else the `content` parts (format 1). */
function ourModelParts(msg: MessageRecord): Part[] {
  if (msg.sdkParts !== undefined) return msg.sdkParts as Part[];
  return Array.isArray(msg.content) ? toParts(msg.content) : modelPartsFromCliMessage(msg);
}

/**
 * The turn a stored message stands for (no pairing yet), following gemini-cli's rules for messages it wrote;
 * undefined for a message that is not sent to the model.
 */
function turnOf(msg: MessageRecord): Content | undefined {
  const ours = msg.sdkFormat !== undefined;
  if (msg.type === 'user') {
    const parts = toParts(msg.content);
    if (!ours && isIgnoredUserText(verboseText(parts))) return undefined;
    return { role: 'user', parts };
  }
  if (msg.type === 'gemini') {
    const parts = ours ? ourModelParts(msg) : modelPartsFromCliMessage(msg);
    if (!ours && parts.length === 0) return undefined;
    return { role: 'model', parts };
  }
  // info / error / warning messages are display-only.
  return undefined;
}

function resultToParts(
  call: UnansweredCall,
  result: PartListRecord | null | undefined,
): Part[] | undefined {
  if (result === null || result === undefined || result === '') return undefined;
  if (typeof result === 'string') {
    return [{ functionResponse: { id: call.id, name: call.name, response: { output: result } } }];
  }
  const parts = toParts(result);
  return parts.length === 0 ? undefined : parts;
}

function interruptedPart(call: UnansweredCall): Part {
  return {
    functionResponse: {
      id: call.id,
      name: call.name,
      response: { error: interruptedToolMessage(call.name) },
    },
  };
}

interface Pending {
  modelIndex: number;
  messageId: string;
  calls: UnansweredCall[];
  answered: Set<number>;
  responseIndex: number | undefined;
  toolCalls: ToolCallRecord[] | undefined;
}

function matchCall(pending: Pending, response: { id?: string; name?: string }): number {
  const { calls, answered } = pending;
  if (response.id !== undefined) {
    for (let i = 0; i < calls.length; i++) {
      if (!answered.has(i) && calls[i]?.id === response.id) return i;
    }
    // A response whose id answers no open call pairs by name only with calls that carry no id.
    for (let i = 0; i < calls.length; i++) {
      const c = calls[i] as UnansweredCall;
      if (!answered.has(i) && c.id === undefined && c.name === response.name) return i;
    }
    return -1;
  }
  for (let i = 0; i < calls.length; i++) {
    if (!answered.has(i) && calls[i]?.name === response.name) return i;
  }
  return -1;
}

/**
 * Rebuilds the API history from stored messages in one pass.
 *
 * - Messages this SDK wrote (`sdkFormat`) are used verbatim: user and function-response turns as `user`,
 *   model turns from `sdkParts` (text, thoughts and functionCall parts with their ids) as `model`.
 * - Messages gemini-cli wrote follow its `convertSessionToClientHistory`: info/error/warning and injected
 *   (`<session_context>`, `/cmd`, …) user messages are skipped; a model turn without functionCall parts is rebuilt
 *   from `thoughts` + text + `toolCalls`.
 * - Pairing: each model turn's calls are answered by the function responses that follow it. A call nobody
 *   answered takes its `toolCalls[].result` (gemini-cli's `<id>_response` turn), else an `interrupted` error.
 *   Responses answering no open call (duplicates of `toolCalls` results, or orphans left by the reference SDK,
 *   which drops functionCall parts) are dropped, so the result never repeats a response.
 */
export function rebuildHistory(messages: readonly MessageRecord[]): RebuiltHistory {
  const lastMessageId = messages.at(-1)?.id;
  const out: Content[] = [];
  let pending: Pending | undefined;
  let interruptedTail: RebuiltHistory['interruptedTail'];

  const flush = (): void => {
    const p = pending;
    pending = undefined;
    if (p === undefined) return;
    const missing = p.calls.filter((_, i) => !p.answered.has(i));
    if (missing.length === 0) return;
    let interrupted = false;
    const fill = missing.flatMap((call) => {
      const record = p.toolCalls?.find((tc) =>
        call.id !== undefined ? tc.id === call.id : tc.name === call.name,
      );
      const fromRecord = resultToParts(call, record?.result);
      if (fromRecord !== undefined) return fromRecord;
      interrupted = true;
      return [interruptedPart(call)];
    });
    if (p.responseIndex !== undefined) {
      const target = out[p.responseIndex] as Content;
      out[p.responseIndex] = { ...target, parts: [...(target.parts ?? []), ...fill] };
      return;
    }
    out.splice(p.modelIndex + 1, 0, { role: 'user', parts: fill });
    if (interrupted && p.messageId === lastMessageId) {
      interruptedTail = { messageId: p.messageId, calls: missing, responseParts: fill };
    }
  };

  for (const msg of messages) {
    const content = turnOf(msg);
    if (content === undefined) continue;
    const parts = content.parts ?? [];
    if (content.role === 'model') {
      flush();
      out.push(content);
      let calls: UnansweredCall[] | undefined;
      for (const p of parts) {
        // `?.`: a stored part may hold `functionCall: null` (kept as a call without id or name, as before).
        const call = p.functionCall;
        if (call !== undefined) (calls ??= []).push({ id: call?.id, name: call?.name ?? '' });
      }
      if (calls !== undefined) {
        pending = {
          modelIndex: out.length - 1,
          messageId: msg.id,
          calls,
          answered: new Set(),
          responseIndex: undefined,
          toolCalls: msg.toolCalls,
        };
      }
      continue;
    }
    let responses = 0;
    for (const p of parts) if (p.functionResponse !== undefined) responses++;
    if (responses === 0) {
      out.push(content);
      continue;
    }
    // Keeps the parts that are not responses, and the responses that answer an open call (each answers one).
    const kept: Part[] = [];
    let keptResponse = false;
    for (const p of parts) {
      if (p.functionResponse === undefined) {
        kept.push(p);
        continue;
      }
      if (pending === undefined) continue;
      const index = matchCall(pending, p.functionResponse);
      if (index === -1) continue;
      pending.answered.add(index);
      kept.push(p);
      keptResponse = true;
    }
    // Every response in this turn was a duplicate or an orphan, and it said nothing else: drop it.
    if (kept.length === 0) continue;
    if (pending !== undefined && pending.responseIndex === undefined && keptResponse) {
      pending.responseIndex = out.length;
    }
    out.push(kept.length === parts.length ? content : { ...content, parts: kept });
  }
  flush();
  return { history: out, interruptedTail };
}

/**
 * The `Content[]` history a session's stored messages stand for (see {@link rebuildHistory}). For a session this
 * SDK wrote it is exactly the history the live session had, call ids included.
 */
export function recordsToHistory(messages: readonly MessageRecord[]): Content[] {
  return rebuildHistory(messages).history;
}
