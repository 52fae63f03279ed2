import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ReplayError } from '../errors.js';

/** One `Part` of a recorded chunk. Loose: unknown fields are kept. */
const RecordedPart = z.looseObject({});

/** One `GenerateContentResponse` as it appears in a replay file (loose: unknown fields are kept). */
export const RecordedResponse = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z
          .looseObject({
            parts: z.array(RecordedPart).optional(),
            role: z.string().optional(),
          })
          .optional(),
        finishReason: z.string().optional(),
      }),
    )
    .optional(),
  usageMetadata: z.looseObject({}).optional(),
});
/** One `GenerateContentResponse` as it appears in a replay file. */
export type RecordedResponse = z.infer<typeof RecordedResponse>;

/**
 * One line of a gemini-cli replay file (`--fake-responses`, SDK `fakeResponses`): a method name and the
 * response it returned. `generateContentStream` holds the array of streamed chunks.
 */
export const FakeResponse = z.discriminatedUnion('method', [
  z.object({ method: z.literal('generateContent'), response: RecordedResponse }),
  z.object({ method: z.literal('generateContentStream'), response: z.array(RecordedResponse) }),
  z.object({
    method: z.literal('countTokens'),
    response: z.looseObject({
      totalTokens: z.number().optional(),
      cachedContentTokenCount: z.number().optional(),
    }),
  }),
  z.object({
    method: z.literal('embedContent'),
    response: z.looseObject({ embeddings: z.array(z.looseObject({})).optional() }),
  }),
]);
/** One line of a gemini-cli replay file. */
export type FakeResponse = z.infer<typeof FakeResponse>;

/** A parsed replay line together with its 1-based line number in the file. */
export interface ReplayLine {
  /** 1-based line number in the file (blank lines count). */
  line: number;
  /** The parsed line. */
  entry: FakeResponse;
}

/** Resolves a replay path (string relative to `process.cwd()`, absolute, or `file:` URL) to an absolute path. */
export function resolveReplayPath(path: string | URL): string {
  if (path instanceof URL) return fileURLToPath(path);
  if (path.startsWith('file:')) return fileURLToPath(path);
  return resolve(path);
}

/**
 * Parses the text of a replay file. Blank (whitespace-only) lines are skipped, as in gemini-cli; every other
 * line must be JSON matching {@link FakeResponse}.
 *
 * @throws ReplayError (code `REPLAY_MALFORMED`) naming the file and the 1-based line of the first bad line.
 */
export function parseReplayText(text: string, file: string): ReplayLine[] {
  const out: ReplayLine[] = [];
  const rawLines = text.split('\n');
  for (let i = 0; i < rawLines.length; i++) {
    const raw = rawLines[i] ?? '';
    if (raw.trim() === '') continue;
    const line = i + 1;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      throw new ReplayError(
        `Malformed replay file ${file}, line ${line}: not valid JSON (${(err as Error).message}). ` +
          `Each non-blank line must be one JSON object {"method": ..., "response": ...}; fix or delete that line.`,
        { file, line, code: 'REPLAY_MALFORMED' },
        { cause: err },
      );
    }
    const parsed = FakeResponse.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((iss) => `${iss.path.length ? iss.path.join('.') : '(line)'}: ${iss.message}`)
        .join('; ');
      throw new ReplayError(
        `Malformed replay file ${file}, line ${line}: ${issues}. Expected {"method": "generateContent" | ` +
          `"generateContentStream" | "countTokens" | "embedContent", "response": ...} ` +
          `(generateContentStream takes an array of chunks); fix or delete that line.`,
        { file, line, code: 'REPLAY_MALFORMED' },
        { cause: parsed.error },
      );
    }
    out.push({ line, entry: parsed.data });
  }
  return out;
}

/**
 * Reads and validates a replay file.
 *
 * @throws ReplayError `REPLAY_FILE_MISSING` when the file cannot be read, `REPLAY_MALFORMED` for a bad line.
 */
export async function loadReplayFile(
  path: string | URL,
): Promise<{ file: string; lines: ReplayLine[] }> {
  const file = resolveReplayPath(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(err)})`;
    throw new ReplayError(
      `Replay file ${file} ${what}. Check the fakeResponses path (relative paths resolve against ` +
        `${process.cwd()}), or record one first by running with recordResponses set to that path.`,
      { file, code: 'REPLAY_FILE_MISSING' },
      { cause: err },
    );
  }
  return { file, lines: parseReplayText(text, file) };
}
