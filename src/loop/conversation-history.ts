import type { Content, FunctionCall } from '@google/genai';

/**
 * The session's conversation as the model sees it (gemini-cli `Content` objects, call ids with their
 * `<name>__` prefix). The loop appends whole turns only, so it is valid between model calls.
 */
export class ConversationHistory {
  private contents: Content[];

  constructor(initial: readonly Content[] = []) {
    this.contents = structuredClone([...initial]);
  }

  /** Appends one turn (a copy is stored). */
  push(content: Content): void {
    this.contents.push(structuredClone(content));
  }

  /**
   * Replaces the whole history (compression). The new turns go into a new array, so a context built before keeps
   * the history it saw (contexts rely on a history that only grows).
   */
  replace(contents: readonly Content[]): void {
    this.contents = structuredClone([...contents]);
  }

  /** A deep copy of the whole history. */
  snapshot(): Content[] {
    return structuredClone(this.contents);
  }

  /** The stored turns, read-only (no copy; do not keep). */
  view(): readonly Content[] {
    return this.contents;
  }

  /** Number of turns. */
  get length(): number {
    return this.contents.length;
  }

  /**
   * The function calls of the last model turn that no later turn answers (empty when the history ends in a
   * valid state). A history ending like this must be closed before the next model call.
   */
  unansweredCalls(): FunctionCall[] {
    let lastModel = -1;
    for (let i = this.contents.length - 1; i >= 0; i--) {
      if (this.contents[i]?.role === 'model') {
        lastModel = i;
        break;
      }
    }
    if (lastModel === -1) return [];
    const calls = (this.contents[lastModel]?.parts ?? [])
      .map((p) => p.functionCall)
      .filter((c): c is FunctionCall => c !== undefined);
    if (calls.length === 0) return [];
    const answeredIds = new Set<string>();
    const answeredNames = new Set<string>();
    for (const content of this.contents.slice(lastModel + 1)) {
      for (const part of content.parts ?? []) {
        const response = part.functionResponse;
        if (response?.id !== undefined) answeredIds.add(response.id);
        if (response?.name !== undefined) answeredNames.add(response.name);
      }
    }
    return calls.filter((c) =>
      c.id === undefined ? !answeredNames.has(c.name ?? '') : !answeredIds.has(c.id),
    );
  }
}
