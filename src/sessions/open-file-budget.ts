import { ConfigurationError } from '../errors.js';

/** A holder of one open session file that can give it up between two of its writes. */
export interface OpenFileHolder {
  /** Closes the file after the writes already queued (the next write reopens it). Never throws. */
  closeWhenQuiet(): void;
}

/** How many session files a {@link FileSessionStore} keeps open at once by default. */
const DEFAULT_MAX_OPEN_FILES = 256;

/**
 * Caps the session files one store keeps open. A busy session keeps its file open between appends (an idle one
 * closes it); with thousands of sessions in a turn at once, one descriptor each would exhaust the process's limit
 * (`EMFILE`) next to their sockets. Beyond the cap, the file used least recently is closed after its queued
 * writes; its next append reopens it and checks that it is still the file the session last wrote (as after idle).
 */
export class OpenFileBudget {
  /** Open holders, least recently used first (a `Set` keeps insertion order). */
  private readonly open = new Set<OpenFileHolder>();

  constructor(readonly max: number) {}

  /** Counts `holder` as holding an open file, used just now; closes the least recently used one beyond the cap. */
  use(holder: OpenFileHolder): void {
    this.open.delete(holder);
    this.open.add(holder);
    while (this.open.size > this.max) {
      const oldest = this.open.values().next().value as OpenFileHolder;
      this.open.delete(oldest);
      oldest.closeWhenQuiet();
    }
  }

  /** `holder` closed its file. */
  closed(holder: OpenFileHolder): void {
    this.open.delete(holder);
  }
}

/** The budget of the stores that set no `maxOpenFiles`: descriptors are a limit of the process, not a store. */
const processOpenFiles = new OpenFileBudget(DEFAULT_MAX_OPEN_FILES);

/** The budget for a store's `maxOpenFiles` option: its own, or the process's when it sets none. */
export function openFileBudget(value: number | undefined): OpenFileBudget {
  if (value === undefined) return processOpenFiles;
  if (!Number.isInteger(value) || value < 1) {
    throw new ConfigurationError(
      `FileSessionStore: maxOpenFiles must be a whole number of at least 1, got ${String(value)}.`,
    );
  }
  return new OpenFileBudget(value);
}
