import { isKeptMessageRecord } from './kept-message-record.js';
import {
  classifyRecord,
  MessageRecord,
  messageRecordOf,
  metadataRecordOf,
  type SessionMetadataRecord,
} from './records.js';

/** A session folded from its records: the merged metadata and the live messages in order. */
export interface Conversation {
  /** Metadata merged from the metadata line(s) and every `$set` (later wins). `messages` is never kept here. */
  metadata: SessionMetadataRecord;
  /** Messages after upserts, checkpoints and rewinds, in first-insertion order. */
  messages: MessageRecord[];
}

/** What parsing a session file found besides the conversation. */
export interface ParsedSessionText {
  /** Undefined when the text holds no session (no metadata with `sessionId` and `projectHash`). */
  conversation: Conversation | undefined;
  /** Non-blank lines that were not valid JSON or not a known record (a torn last line is one of them). */
  skippedLines: number;
  /** True when the text does not end with a newline: the last line was cut off (or written without one). */
  tornTail: boolean;
  /** True when the text was read as a legacy single-object `.json` session. */
  legacy: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Folds session records in order, with gemini-cli's semantics: metadata lines and `$set` merge into the
 * metadata; a message upserts by id (keeping its first position); `$set.messages` replaces every message (a
 * checkpoint); `$rewindTo` drops that message and all later ones, or all messages when the id is unknown.
 */
export class ConversationBuilder {
  private metadata: Record<string, unknown> = {};
  private readonly messages = new Map<string, MessageRecord>();

  /** Applies one parsed record. Returns false when the value is not a valid session record (it is ignored). */
  apply(json: unknown): boolean {
    const classified = classifyRecord(json);
    if (classified === undefined) return false;
    switch (classified.kind) {
      case 'rewind':
        this.rewindTo(classified.record.$rewindTo);
        return true;
      case 'message':
        this.messages.set(classified.record.id, classified.record);
        return true;
      case 'set': {
        const set = classified.record.$set;
        if (!Object.prototype.hasOwnProperty.call(set, 'messages')) {
          // The common `{"$set": {"lastUpdated": …}}` of every turn: merged in place (this.metadata is private
          // and copied wherever it is read), the same keys in the same order as a spread.
          Object.assign(this.metadata, set);
          return true;
        }
        const { messages, ...rest } = set;
        if (messages !== undefined) this.replaceMessages(messages);
        this.metadata = { ...this.metadata, ...rest };
        return true;
      }
      case 'metadata': {
        const { messages, ...rest } = classified.record;
        if (Array.isArray(messages)) {
          for (const m of messages) this.upsertUnknown(m);
        }
        this.metadata = { ...this.metadata, ...rest };
        return true;
      }
      default: {
        const never: never = classified;
        return never;
      }
    }
  }

  /**
   * Applies a value that {@link classifyRecord} detects as a message (an object without a string `$rewindTo`, with
   * a string `id`) — what {@link apply} does with it, without the classification. False when it does not validate.
   * When `json` already is what the schema returns ({@link isKeptMessageRecord}) it is kept as the record, not
   * copied: the caller hands it over (a line it just parsed) and must not change it.
   */
  applyMessage(json: object): boolean {
    const record = isKeptMessageRecord(json) ? (json as MessageRecord) : messageRecordOf(json);
    if (record === undefined) return false;
    this.messages.set(record.id, record);
    return true;
  }

  /** Applies `{"$set": {"lastUpdated": value}}` (what {@link apply} does with it, without building the record). */
  setLastUpdated(value: string): void {
    this.metadata['lastUpdated'] = value;
  }

  /**
   * Adds messages that already are {@link MessageRecord}s (a folded session's, as {@link result} returns them)
   * without validating them again: each is upserted by id, as {@link apply} would. Kept by reference — session
   * records are never changed in place (an update is a new record).
   */
  adoptMessages(messages: readonly MessageRecord[]): void {
    for (const message of messages) this.messages.set(message.id, message);
  }

  /**
   * The conversation as records that replay to it: the merged metadata, then every live message in order (what a
   * rewritten session file holds).
   */
  records(): Array<Record<string, unknown>> {
    return [{ ...this.metadata }, ...this.messages.values()];
  }

  /** Number of live messages. */
  get messageCount(): number {
    return this.messages.size;
  }

  /** The folded conversation, or undefined when no record named the session (`sessionId` + `projectHash`). */
  result(): Conversation | undefined {
    const metadata = metadataRecordOf(this.metadata);
    if (metadata === undefined) return undefined;
    return { metadata, messages: [...this.messages.values()] };
  }

  private rewindTo(id: string): void {
    if (!this.messages.has(id)) {
      this.messages.clear();
      return;
    }
    let found = false;
    for (const key of [...this.messages.keys()]) {
      if (key === id) found = true;
      if (found) this.messages.delete(key);
    }
  }

  private replaceMessages(messages: unknown[]): void {
    this.messages.clear();
    for (const m of messages) this.upsertUnknown(m);
  }

  private upsertUnknown(value: unknown): void {
    const parsed = MessageRecord.safeParse(value);
    if (parsed.success) this.messages.set(parsed.data.id, parsed.data);
  }
}

/** Folds already-parsed records (see {@link ConversationBuilder}). */
export function foldRecords(records: Iterable<unknown>): Conversation | undefined {
  const builder = new ConversationBuilder();
  for (const record of records) builder.apply(record);
  return builder.result();
}

/**
 * Reads a legacy single-object session (`{sessionId, projectHash, startTime, lastUpdated, messages: [...]}`,
 * possibly pretty-printed), as gemini-cli still does for `.json` files.
 */
export function parseLegacySessionText(text: string): Conversation | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(json) || typeof json['sessionId'] !== 'string') return undefined;
  const builder = new ConversationBuilder();
  const { messages, ...metadata } = json;
  builder.apply({ projectHash: '', ...metadata });
  if (Array.isArray(messages)) builder.apply({ $set: { messages } });
  return builder.result();
}

/** The common per-turn `$set` line, recognised without `JSON.parse` (see {@link lastUpdatedOf}). */
const SET_LAST_UPDATED_HEAD = '{"$set":{"lastUpdated":"';
const SET_LAST_UPDATED_TAIL = '"}}';

/**
 * The value of a line that is exactly `{"$set":{"lastUpdated":"<value>"}}` with a value holding no `"`, no `\\`
 * and no control character — a line `JSON.parse` reads as that one string, unchanged. Undefined for any other line
 * (it is parsed as JSON). A session writes one such line per message: nearly half of a long session's lines.
 */
function lastUpdatedOf(line: string): string | undefined {
  const end = line.length - SET_LAST_UPDATED_TAIL.length;
  if (end < SET_LAST_UPDATED_HEAD.length || !line.startsWith(SET_LAST_UPDATED_HEAD))
    return undefined;
  if (!line.endsWith(SET_LAST_UPDATED_TAIL)) return undefined;
  for (let i = SET_LAST_UPDATED_HEAD.length; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return undefined;
  }
  return line.slice(SET_LAST_UPDATED_HEAD.length, end);
}

/** A parsed line that would be folded as a message (gemini-cli's detection: no string `$rewindTo`, a string `id`). */
function messageIdOf(json: unknown): string | undefined {
  if (!isObject(json) || typeof json['$rewindTo'] === 'string') return undefined;
  const id = json['id'];
  return typeof id === 'string' ? id : undefined;
}

/**
 * Parses the text of a session file in one pass: JSONL records (blank lines skipped, unparsable lines — such as
 * a line torn by a crash — ignored). When no metadata is found, the whole text is tried as a legacy `.json`.
 *
 * Consecutive message lines with the same id (gemini-cli and this SDK re-write a model message with its
 * `toolCalls` once the tools have run) are a run: only the last one that validates is folded, the ones before it
 * are not checked (no other message is inserted between them, so the message keeps the same place whichever of
 * them is first valid). Lines in between that change no message (`$set` of `lastUpdated`, unparsable lines) do not
 * end a run. A replaced line is therefore not counted in `skippedLines` even when it would not validate.
 */
export function parseSessionText(text: string): ParsedSessionText {
  const builder = new ConversationBuilder();
  let skippedLines = 0;
  /** The current run of same-id message lines (parsed, not yet validated). */
  let run: object[] = [];
  let runId: string | undefined;
  const flushRun = (): void => {
    for (let k = run.length - 1; k >= 0; k--) {
      if (builder.applyMessage(run[k] as object)) break;
      skippedLines++;
    }
    run = [];
    runId = undefined;
  };
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    // A record line starts with `{`; only other lines need the (allocating) blank-line check.
    if (line.charCodeAt(0) !== 0x7b) {
      if (line.trim() === '') continue;
    } else {
      const lastUpdated = lastUpdatedOf(line);
      if (lastUpdated !== undefined) {
        builder.setLastUpdated(lastUpdated);
        continue;
      }
    }
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      skippedLines++;
      continue;
    }
    const id = messageIdOf(json);
    if (id !== undefined) {
      if (id !== runId) flushRun();
      run.push(json as object);
      runId = id;
      continue;
    }
    flushRun();
    if (!builder.apply(json)) skippedLines++;
  }
  flushRun();
  const tornTail = text.length > 0 && !text.endsWith('\n');
  const conversation = builder.result();
  if (conversation !== undefined) return { conversation, skippedLines, tornTail, legacy: false };
  const legacy = parseLegacySessionText(text);
  if (legacy !== undefined)
    return { conversation: legacy, skippedLines: 0, tornTail: false, legacy: true };
  return { conversation: undefined, skippedLines, tornTail, legacy: false };
}
