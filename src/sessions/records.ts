import { z } from 'zod';
import { fastMetadataRecord } from './flat-record-fast-path.js';
import { fastMessageRecord, fastSetRecord } from './record-fast-path.js';

/**
 * Version of the fields this SDK adds to gemini-cli's session records. Written as `sdkFormat` on the metadata
 * line and on every message record we write (gemini-cli keeps unknown fields on both). Messages have gemini-cli's
 * CLI shapes; a model message also keeps the exact `Part[]` of the live history turn in `sdkParts` (format 2; in
 * format 1 `content` held them), so resume rebuilds history verbatim.
 */
export const SESSION_FORMAT_VERSION = 2;

/**
 * One `Part` as stored in a session file: any JSON object, kept as written (checked, not copied, so that loading
 * a long session stays a single cheap pass).
 */
export const PartRecord = z.custom<{ [key: string]: unknown }>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { message: 'expected a Part object' },
);
/** One `Part` as stored in a session file. */
export type PartRecord = z.infer<typeof PartRecord>;

/** gemini-cli's `PartListUnion` as it appears in `content`: a string, one part, or a list of parts/strings. */
export const PartListRecord = z.union([
  z.string(),
  z.array(z.union([z.string(), PartRecord])),
  PartRecord,
]);
/** gemini-cli's `PartListUnion` as it appears in `content`. */
export type PartListRecord = z.infer<typeof PartListRecord>;

/** Token usage of one model message (gemini-cli's `TokensSummary`). */
export const TokensSummary = z.looseObject({
  input: z.number(),
  output: z.number(),
  cached: z.number(),
  thoughts: z.number().optional(),
  tool: z.number().optional(),
  total: z.number(),
});
/** Token usage of one model message (gemini-cli's `TokensSummary`). */
export type TokensSummary = z.infer<typeof TokensSummary>;

/** A thought summary kept on a model message (`{subject, description, timestamp}`). */
export const ThoughtRecord = z.looseObject({
  subject: z.string(),
  description: z.string(),
  timestamp: z.string().optional(),
});
/** A thought summary kept on a model message. */
export type ThoughtRecord = z.infer<typeof ThoughtRecord>;

/**
 * gemini-cli's `ToolCallRecord`: one tool call of a model message and its result. `id` is the prefixed call id
 * (`<name>__<raw id>`); `result` is the list of response parts sent back to the model, or null while pending.
 */
export const ToolCallRecord = z.looseObject({
  id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()).default({}),
  result: PartListRecord.nullable().optional(),
  /** gemini-cli's scheduler status: `success`, `error`, `cancelled` (others may appear while running). */
  status: z.string(),
  timestamp: z.string().optional(),
  agentId: z.string().optional(),
  displayName: z.string().optional(),
  description: z.string().optional(),
  resultDisplay: z.unknown().optional(),
  renderOutputAsMarkdown: z.boolean().optional(),
});
/** gemini-cli's `ToolCallRecord`. */
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

/** The message types gemini-cli writes. `info`, `error` and `warning` are display-only. */
export const MessageType = z.enum(['user', 'gemini', 'info', 'error', 'warning']);
/** The message types gemini-cli writes. */
export type MessageType = z.infer<typeof MessageType>;

/**
 * One message line (gemini-cli's `MessageRecord`), upserted by `id`. Unknown fields are kept, so records written
 * by newer gemini-cli versions survive a round trip.
 */
export const MessageRecord = z.looseObject({
  id: z.string(),
  timestamp: z.string().optional(),
  type: MessageType,
  content: PartListRecord.default(''),
  displayContent: PartListRecord.optional(),
  toolCalls: z.array(ToolCallRecord).optional(),
  thoughts: z.array(ThoughtRecord).optional(),
  tokens: TokensSummary.nullable().optional(),
  model: z.string().optional(),
  /** Present on messages this SDK wrote (= {@link SESSION_FORMAT_VERSION} then). */
  sdkFormat: z.number().optional(),
  /**
   * On model messages this SDK wrote (format 2): the exact parts of the turn — `content` holds gemini-cli's
   * visible-text string. Format-1 files kept the parts in `content`.
   */
  sdkParts: z.array(PartRecord).optional(),
});
/** One message line (gemini-cli's `MessageRecord`). */
export type MessageRecord = z.infer<typeof MessageRecord>;

const MESSAGE_RECORD_KEYS = Object.keys(MessageRecord.shape);

/**
 * The same message with its fields in {@link MessageRecord}'s order, the fields it does not name after them in
 * their order (what the schema returns, so a line written from it is kept as parsed on resume).
 */
export function inMessageRecordOrder(message: MessageRecord): MessageRecord {
  const out: Record<string, unknown> = {};
  for (const key of MESSAGE_RECORD_KEYS) if (Object.hasOwn(message, key)) out[key] = message[key];
  for (const key of Object.keys(message)) if (!Object.hasOwn(out, key)) out[key] = message[key];
  return out as MessageRecord;
}

/** The session kind gemini-cli records (`subagent` sessions live in a nested folder and are not listed). */
export const SessionKind = z.enum(['main', 'subagent']);
/** The session kind gemini-cli records. */
export type SessionKind = z.infer<typeof SessionKind>;

const metadataFields = {
  startTime: z.string().optional(),
  lastUpdated: z.string().optional(),
  kind: SessionKind.optional(),
  directories: z.array(z.string()).optional(),
  summary: z.string().optional(),
  sdkFormat: z.number().optional(),
};

/**
 * The metadata line (first line of a session file): detected by string `sessionId` and `projectHash`.
 * Later metadata lines are merged over earlier ones.
 */
export const SessionMetadataRecord = z.looseObject({
  sessionId: z.string(),
  projectHash: z.string(),
  ...metadataFields,
});
/** The metadata line of a session file. */
export type SessionMetadataRecord = z.infer<typeof SessionMetadataRecord>;

/**
 * `{"$set": {...}}`: merged into the metadata. When it holds `messages`, the message list is replaced by them
 * (a checkpoint, as gemini-cli writes on history syncs).
 */
export const SetRecord = z.object({
  $set: z.looseObject({
    sessionId: z.string().optional(),
    projectHash: z.string().optional(),
    ...metadataFields,
    messages: z.array(z.unknown()).optional(),
  }),
});
/** A `$set` record. */
export type SetRecord = z.infer<typeof SetRecord>;

/** `{"$rewindTo": "<id>"}`: drops that message and every later one (all messages when the id is unknown). */
export const RewindRecord = z.object({ $rewindTo: z.string() });
/** A `$rewindTo` record. */
export type RewindRecord = z.infer<typeof RewindRecord>;

/** Any record a session holds: what a {@link SessionStore} appends and replays. */
export type SessionRecord = SessionMetadataRecord | MessageRecord | SetRecord | RewindRecord;

/** A record together with what kind it is (see {@link classifyRecord}). */
export type ClassifiedRecord =
  | { kind: 'rewind'; record: RewindRecord }
  | { kind: 'message'; record: MessageRecord }
  | { kind: 'set'; record: SetRecord }
  | { kind: 'metadata'; record: SessionMetadataRecord };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates a value that {@link classifyRecord} detects as a message (an object without a string `$rewindTo`, with
 * a string `id`): the common shapes by hand (`record-fast-path.ts`), anything else with the zod schema.
 */
export function messageRecordOf(json: object): MessageRecord | undefined {
  const fast = fastMessageRecord(json);
  if (fast !== undefined) return fast as MessageRecord;
  const parsed = MessageRecord.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** Validates a session's metadata: the common shapes by hand (`record-fast-path.ts`), else the zod schema. */
export function metadataRecordOf(json: unknown): SessionMetadataRecord | undefined {
  const fast = fastMetadataRecord(json);
  if (fast !== undefined) return fast as SessionMetadataRecord;
  const parsed = SessionMetadataRecord.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Classifies one parsed JSON line with gemini-cli's detection order (`$rewindTo` string, then `id` string, then
 * `$set` object, then `sessionId` + `projectHash` strings) and validates it. Returns undefined for a line that is
 * none of these or does not validate (gemini-cli ignores such lines too).
 */
export function classifyRecord(json: unknown): ClassifiedRecord | undefined {
  if (!isObject(json)) return undefined;
  if (typeof json['$rewindTo'] === 'string') {
    const parsed = RewindRecord.safeParse(json);
    return parsed.success ? { kind: 'rewind', record: parsed.data } : undefined;
  }
  if (typeof json['id'] === 'string') {
    const record = messageRecordOf(json);
    return record === undefined ? undefined : { kind: 'message', record };
  }
  if (isObject(json['$set'])) {
    const fast = fastSetRecord(json);
    if (fast !== undefined) return { kind: 'set', record: fast as SetRecord };
    const parsed = SetRecord.safeParse(json);
    return parsed.success ? { kind: 'set', record: parsed.data } : undefined;
  }
  if (typeof json['sessionId'] === 'string' && typeof json['projectHash'] === 'string') {
    const record = metadataRecordOf(json);
    return record === undefined ? undefined : { kind: 'metadata', record };
  }
  return undefined;
}
