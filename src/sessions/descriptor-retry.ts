import type { Mode, OpenMode, PathLike } from 'node:fs';
import * as fs from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** Errors of a process (`EMFILE`) or system (`ENFILE`) out of file descriptors: they pass once others close. */
const OUT_OF_DESCRIPTORS = new Set(['EMFILE', 'ENFILE']);
/** How long a call waits for a descriptor before it fails with the system's error. */
const GIVE_UP_MS = 60_000;

/**
 * At most this many of these calls at once in the process: thousands of sessions starting together (a lock file,
 * a session file and a listing each) would otherwise take every free descriptor at the same moment, and the
 * sockets of their model calls — which cannot wait — would fail with `EMFILE`.
 */
const MAX_AT_ONCE = 128;
let running = 0;
const waiting: Array<() => void> = [];

async function slot(): Promise<void> {
  if (running < MAX_AT_ONCE) {
    running++;
    return;
  }
  // The releasing call hands its slot over, so `running` stays counted.
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function releaseSlot(): void {
  const next = waiting.shift();
  if (next !== undefined) next();
  else running--;
}

/**
 * Runs `op` (one call that opens a descriptor and fails before doing anything else when none is free): at most
 * {@link MAX_AT_ONCE} at a time, retrying with a growing, jittered pause while the process is out of descriptors —
 * thousands of sessions writing at once next to their sockets wait their turn instead of failing, as
 * `graceful-fs` does for the whole `fs` module.
 */
async function whenDescriptorFree<T>(op: () => Promise<T>): Promise<T> {
  await slot();
  try {
    const started = Date.now();
    let pause = 2;
    for (;;) {
      try {
        return await op();
      } catch (err) {
        const code = (err as NodeJS.ErrnoException | null)?.code;
        if (
          code === undefined ||
          !OUT_OF_DESCRIPTORS.has(code) ||
          Date.now() - started > GIVE_UP_MS
        )
          throw err;
        await sleep(pause + Math.random() * pause);
        pause = Math.min(pause * 2, 200);
      }
    }
  } finally {
    releaseSlot();
  }
}

/** `fs.promises.open`, waiting for a free descriptor (see {@link whenDescriptorFree}). */
export function open(path: PathLike, flags?: OpenMode, mode?: Mode): Promise<fs.FileHandle> {
  return whenDescriptorFree(() => fs.open(path, flags, mode));
}

/** `fs.promises.readFile` as text, waiting for a free descriptor. */
export function readFile(path: PathLike, encoding: BufferEncoding): Promise<string> {
  return whenDescriptorFree(() => fs.readFile(path, encoding));
}

/** `fs.promises.writeFile`, waiting for a free descriptor (a failed open wrote nothing, so a retry is safe). */
export function writeFile(
  path: PathLike,
  data: string,
  options?: BufferEncoding | { encoding?: BufferEncoding; flag?: OpenMode },
): Promise<void> {
  return whenDescriptorFree(() => fs.writeFile(path, data, options));
}

/** `fs.promises.readdir` (names), waiting for a free descriptor. */
export function readdir(path: PathLike): Promise<string[]> {
  return whenDescriptorFree(() => fs.readdir(path));
}
