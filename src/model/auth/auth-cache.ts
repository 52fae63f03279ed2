/**
 * Shares sign-in and Code Assist setup between the generators of one agent, so a second session does not
 * refresh tokens and call `loadCodeAssist` again (gemini-cli caches both per process). A failed attempt is
 * not kept: the next session tries again.
 */
export class AuthCache {
  private readonly entries = new Map<string, Promise<unknown>>();

  /** The value for `key`, created once by `create` (concurrent callers share the same attempt). */
  getOrCreate<T>(key: string, create: () => Promise<T>): Promise<T> {
    const existing = this.entries.get(key);
    if (existing) return existing as Promise<T>;
    const created = create();
    this.entries.set(key, created);
    created.catch(() => {
      if (this.entries.get(key) === created) this.entries.delete(key);
    });
    return created;
  }

  /** Forgets everything (e.g. after `gemini-agent logout`). */
  clear(): void {
    this.entries.clear();
  }
}
