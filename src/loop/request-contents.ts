import type { Content, Part } from '@google/genai';
import { stripCallIdPrefix } from './call-ids.js';

/** Placeholder model turn gemini-cli inserts when a user message follows unanswered tool results. */
export const INTERRUPTED_PLACEHOLDER =
  '[The previous response was interrupted before it completed.]';

/** Signature gemini-cli puts on function calls that have none, so Gemini 3 accepts the history. */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Builds the `contents` of a request from the stored history, as gemini-cli does: thought parts removed, the
 * `<name>__` prefix stripped from call ids, a thought signature on the first function call of each model turn
 * of the active loop, and consecutive same-role turns coalesced — except a user prompt right after another user
 * turn (tool results, or a prompt whose answer never came): it gets gemini-cli's placeholder model turn in
 * between, so a prompt is never silently merged into the next one. The stored history is not modified.
 *
 * Only what changes is copied: every `Content` and `parts` array is new, but a part that needs no change (no
 * prefixed call id, no added signature) is the history's own object, not a copy. This relies on history entries
 * never being mutated once stored (the loop only appends), and neither the loop nor the model client may
 * mutate the returned parts.
 */
export function buildRequestContents(history: readonly Content[]): Content[] {
  const out: Content[] = [];
  for (const stored of history) {
    const parts: Part[] = [];
    for (const part of stored.parts ?? []) {
      if (part.thought !== true) parts.push(stripPartIds(part));
    }
    if (parts.length === 0) continue;
    const content: Content = { role: stored.role ?? 'user', parts };
    const prev = out[out.length - 1];
    if (prev && prev.role === content.role) {
      if (content.role === 'user' && !onlyFunctionResponses(content)) {
        out.push({ role: 'model', parts: [{ text: INTERRUPTED_PLACEHOLDER }] }, content);
      } else {
        prev.parts = [...(prev.parts ?? []), ...(content.parts ?? [])];
      }
      continue;
    }
    out.push(content);
  }
  addThoughtSignatures(out);
  return out;
}

/**
 * Puts `parts` before the first user turn's own parts, as gemini-cli sends its `<session_context>` (the first
 * history entry, coalesced with the user's first message). A history that does not start with a user turn gets
 * a user turn of its own first. Returns `contents` itself when there is nothing to add.
 */
export function withContextParts(
  contents: Content[],
  parts: readonly Part[] | undefined,
): Content[] {
  if (parts === undefined || parts.length === 0) return contents;
  const [first, ...rest] = contents;
  if (first?.role === 'user')
    return [{ role: 'user', parts: [...parts, ...(first.parts ?? [])] }, ...rest];
  return [{ role: 'user', parts: [...parts] }, ...contents];
}

/**
 * Derived parts, keyed by the part they were derived from. History parts are never mutated once stored, so a
 * part's cleaned (or signed) copy can be reused by every later request instead of being rebuilt per model
 * call: that keeps request building linear in the new messages and hands the client the same objects each time.
 */
const strippedParts = new WeakMap<Part, Part>();
const signedParts = new WeakMap<Part, Part>();

/** The part with the `<name>__` prefix removed from its call id; the part itself when there is none. */
function stripPartIds(part: Part): Part {
  let stripped = strippedParts.get(part);
  if (stripped === undefined) {
    stripped = stripPartIdsUncached(part);
    strippedParts.set(part, stripped);
  }
  return stripped;
}

/*
 * Derived parts are structured clones with one field set, not spreads (`{ ...part, id }`): a clone has the same
 * hidden class as every other part of its kind in the history (which holds structured clones too), while each
 * spread site makes objects of a class of its own. @google/genai converts every part of every request through
 * generic property lookups, which run about 40 % slower on the mixed classes (bench/p3-shape-ab.mjs).
 */
function stripPartIdsUncached(part: Part): Part {
  const { functionCall, functionResponse } = part;
  if (functionCall) {
    const id = stripCallIdPrefix(functionCall.name, functionCall.id);
    if (id === functionCall.id) return part;
    const copy = structuredClone(part);
    (copy.functionCall as NonNullable<Part['functionCall']>).id = id;
    return copy;
  }
  if (functionResponse) {
    const id = stripCallIdPrefix(functionResponse.name, functionResponse.id);
    if (id === functionResponse.id) return part;
    const copy = structuredClone(part);
    (copy.functionResponse as NonNullable<Part['functionResponse']>).id = id;
    return copy;
  }
  return part;
}

function onlyFunctionResponses(content: Content): boolean {
  return (content.parts ?? []).every((p) => p.functionResponse !== undefined);
}

function addThoughtSignatures(contents: Content[]): void {
  let start = 0;
  contents.forEach((c, i) => {
    if (c.role === 'user' && (c.parts ?? []).some((p) => p.functionResponse === undefined))
      start = i;
  });
  for (let i = start; i < contents.length; i++) {
    const content = contents[i] as Content;
    if (content.role !== 'model') continue;
    const parts = content.parts ?? [];
    const first = parts.findIndex((p) => p.functionCall !== undefined);
    const part = parts[first];
    if (part && !part.thoughtSignature) {
      let signed = signedParts.get(part);
      if (signed === undefined) {
        signed = structuredClone(part);
        signed.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
        signedParts.set(part, signed);
      }
      parts[first] = signed;
    }
  }
}
