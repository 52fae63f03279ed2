import { classifyRecord, MessageRecord } from '../sessions/records.js';
import { StoredPausedTurn, PAUSED_TURN_KEY } from '../sessions/session-persistence.js';
import { firstPrompt } from '../sessions/session-summary.js';

/** A message as one row of the messages table. */
export interface MessageRow {
  /** The message id (upsert key). */
  id: string;
  /** gemini-cli's message type (`user`, `gemini`, `info`, …). */
  type: string;
  /** The text `list()` shows as the session's first prompt, when this message is a real user prompt. */
  prompt: string | null;
  /** The validated record as JSON text. */
  body: string;
}

/** One change to a session's messages, applied in order. */
export type AppendStep =
  /** Insert new messages at the end; a known id is updated in place (first position kept). */
  | { kind: 'upsert'; messages: MessageRow[] }
  /** `$rewindTo`: drop that message and every later one (all of them when the id is unknown). */
  | { kind: 'rewind'; messageId: string }
  /** A checkpoint (`$set.messages`): the messages become exactly these. */
  | { kind: 'replace'; messages: MessageRow[] };

/** What appending a batch of records does to a session. */
export interface AppendPlan {
  /** The message changes in record order; consecutive upserts are merged into one step. */
  steps: AppendStep[];
  /** The session's metadata after every metadata record and `$set` of the batch. */
  metadata: Record<string, unknown>;
}

/** Columns of the sessions table derived from the merged metadata. */
export interface SessionColumns {
  projectHash: string;
  kind: string;
  startTime: string;
  lastUpdated: string;
  summary: string | null;
  /** True while the metadata holds a paused turn whose approvals were not decided yet. */
  waitingApproval: boolean;
}

/** A string for a text column: PostgreSQL text cannot hold NUL characters (the JSON bodies keep them escaped). */
function textColumn(value: string | undefined): string | null {
  return value === undefined ? null : value.replaceAll('\u0000', '\uFFFD');
}

function toRow(message: MessageRecord): MessageRow {
  return {
    id: message.id,
    type: message.type,
    prompt: textColumn(firstPrompt([message])),
    body: JSON.stringify(message),
  };
}

/** Valid messages as rows, one per id (first position, last content), as a fold would keep them. */
function rowsOf(values: readonly unknown[]): MessageRow[] {
  const byId = new Map<string, MessageRow>();
  for (const value of values) {
    const parsed = MessageRecord.safeParse(value);
    if (!parsed.success) continue;
    const row = toRow(parsed.data);
    byId.set(row.id, row);
  }
  return [...byId.values()];
}

/** Position of each id in an upsert step, so that merging a batch stays linear. */
const positions = new WeakMap<AppendStep, Map<string, number>>();

/** Merges rows into the last step when it is an upsert (one id keeps its first position and its last body). */
function pushUpserts(steps: AppendStep[], rows: readonly MessageRow[]): void {
  if (rows.length === 0) return;
  let last = steps.at(-1);
  if (last?.kind !== 'upsert') {
    last = { kind: 'upsert', messages: [] };
    steps.push(last);
  }
  let index = positions.get(last);
  if (index === undefined) {
    index = new Map();
    positions.set(last, index);
  }
  for (const row of rows) {
    const at = index.get(row.id);
    if (at === undefined) {
      index.set(row.id, last.messages.length);
      last.messages.push(row);
    } else last.messages[at] = row;
  }
}

/**
 * Plans an append with gemini-cli's record semantics (the same as `ConversationBuilder`): records that are not
 * valid session records are dropped (a reader would skip them); a message upserts by id; a metadata record or a
 * `$set` merges into the metadata, its `messages` upserted (metadata record) or replacing all (`$set`);
 * `$rewindTo` truncates. The session id never changes.
 */
export function planAppend(
  sessionId: string,
  current: Readonly<Record<string, unknown>>,
  records: readonly unknown[],
): AppendPlan {
  const steps: AppendStep[] = [];
  let metadata: Record<string, unknown> = { ...current };
  for (const record of records) {
    const classified = classifyRecord(JSON.parse(JSON.stringify(record)) as unknown);
    if (classified === undefined) continue;
    switch (classified.kind) {
      case 'message':
        pushUpserts(steps, [toRow(classified.record)]);
        break;
      case 'rewind':
        steps.push({ kind: 'rewind', messageId: classified.record.$rewindTo });
        break;
      case 'set': {
        const { messages, ...rest } = classified.record.$set;
        if (messages !== undefined) steps.push({ kind: 'replace', messages: rowsOf(messages) });
        metadata = { ...metadata, ...rest };
        break;
      }
      case 'metadata': {
        const { messages, ...rest } = classified.record;
        if (Array.isArray(messages)) pushUpserts(steps, rowsOf(messages));
        metadata = { ...metadata, ...rest };
        break;
      }
      default: {
        const never: never = classified;
        return never;
      }
    }
  }
  metadata['sessionId'] = sessionId;
  return { steps, metadata };
}

/** True when the plan only adds or updates messages (one statement can apply it). */
export function isSimplePlan(plan: AppendPlan): boolean {
  return plan.steps.every((s) => s.kind === 'upsert');
}

/** The sessions-table columns for merged metadata (`fallbackTime` when it lacks a time). */
export function sessionColumns(
  metadata: Readonly<Record<string, unknown>>,
  fallbackTime: string,
): SessionColumns {
  const str = (key: string): string | undefined =>
    typeof metadata[key] === 'string' ? metadata[key] : undefined;
  const startTime = str('startTime') ?? fallbackTime;
  const paused = StoredPausedTurn.safeParse(metadata[PAUSED_TURN_KEY]);
  return {
    projectHash: str('projectHash') ?? '',
    kind: str('kind') ?? 'main',
    startTime,
    lastUpdated: str('lastUpdated') ?? startTime,
    summary: textColumn(str('summary')),
    waitingApproval: paused.success && paused.data.turn['resolvedAt'] === undefined,
  };
}
