import type { Part } from '@google/genai';
import path from 'node:path';
import type { SandboxFilesystem } from '../../core/workspace-types.js';
import { decodeText, detectFileType, mediaMimeType } from './file-types.js';
import { readForTool } from './safe-read.js';
import { toPosix } from './tool-paths.js';

/** Lines read_file returns when no range is given. */
export const DEFAULT_MAX_LINES_TEXT_FILE = 2000;
/** Longer lines are cut and marked `... [truncated]`. */
export const MAX_LINE_LENGTH_TEXT_FILE = 2000;
/** Files above this size are refused. */
export const MAX_FILE_SIZE_MB = 20;

/** What reading one file produced, as gemini-cli's `ProcessedFileReadResult`. */
export interface ProcessedFile {
  /** Text for text files, an `inlineData` part for media. */
  llmContent: string | Part;
  returnDisplay: string;
  /** Set when the read failed. */
  error?: string;
  errorType?: string;
  isTruncated?: boolean;
  originalLineCount?: number;
  /** `[first, last]` 1-based lines shown. */
  linesShown?: [number, number];
}

/**
 * Reads one (already workspace-approved) file through `fs` the way gemini-cli's `processSingleFileContent`
 * does: missing / directory / too large errors; binary files skipped; images, audio, video and PDF as inline
 * data; text sliced to the range (default the first 2000 lines) with over-long lines cut.
 */
export async function processFileContent(
  fs: SandboxFilesystem,
  filePath: string,
  rootDirectory: string,
  startLine?: number,
  endLine?: number,
): Promise<ProcessedFile> {
  const relative = toPosix(path.relative(rootDirectory, filePath));
  const info = await fs.stat(filePath);
  if (!info) {
    return {
      llmContent: 'Could not read file because no file was found at the specified path.',
      returnDisplay: 'File not found.',
      error: `File not found: ${filePath}`,
      errorType: 'file_not_found',
    };
  }
  if (info.kind === 'directory') {
    return {
      llmContent: 'Could not read file because the provided path is a directory, not a file.',
      returnDisplay: 'Path is a directory.',
      error: `Path is a directory, not a file: ${filePath}`,
      errorType: 'target_is_directory',
    };
  }
  if (info.kind !== 'file') {
    return {
      llmContent:
        'Could not read file because the path is not a regular file (a FIFO, socket or device).',
      returnDisplay: 'Path is not a regular file.',
      error: `Path is not a regular file: ${filePath}`,
      errorType: 'read_content_failure',
    };
  }
  const sizeMb = info.size / (1024 * 1024);
  if (sizeMb > MAX_FILE_SIZE_MB) {
    return {
      llmContent: `File size exceeds the ${MAX_FILE_SIZE_MB}MB limit.`,
      returnDisplay: `File size exceeds the ${MAX_FILE_SIZE_MB}MB limit.`,
      error: `File size exceeds the ${MAX_FILE_SIZE_MB}MB limit: ${filePath} (${sizeMb.toFixed(2)}MB)`,
      errorType: 'file_too_large',
    };
  }
  const read = await readForTool(fs, filePath);
  if (read.kind === 'refused') {
    return {
      llmContent: read.message,
      returnDisplay: read.message,
      error: read.message,
      errorType: read.type,
    };
  }
  const bytes = read.kind === 'bytes' ? read.bytes : null;
  if (bytes === null) {
    return {
      llmContent: `Error reading file ${relative}: the file could not be read.`,
      returnDisplay: `Error reading file ${relative}: the file could not be read.`,
      error: `Error reading file ${filePath}: the file could not be read.`,
      errorType: 'read_content_failure',
    };
  }
  const type = detectFileType(filePath, bytes);
  switch (type) {
    case 'binary':
      return {
        llmContent: `Cannot display content of binary file: ${relative}`,
        returnDisplay: `Skipped binary file: ${relative}`,
      };
    case 'svg':
      if (bytes.length > 1024 * 1024) {
        return {
          llmContent: `Cannot display content of SVG file larger than 1MB: ${relative}`,
          returnDisplay: `Skipped large SVG file (>1MB): ${relative}`,
        };
      }
      return { llmContent: decodeText(bytes), returnDisplay: `Read SVG as text: ${relative}` };
    case 'image':
    case 'pdf':
    case 'audio':
    case 'video':
      return {
        llmContent: {
          inlineData: {
            data: Buffer.from(bytes).toString('base64'),
            mimeType: mediaMimeType(filePath) ?? 'application/octet-stream',
          },
        },
        returnDisplay: `Read ${type} file: ${relative}`,
      };
    case 'text':
      return sliceText(decodeText(bytes), relative, startLine, endLine);
  }
}

function sliceText(
  content: string,
  relative: string,
  startLine: number | undefined,
  endLine: number | undefined,
): ProcessedFile {
  const lines = content.split('\n');
  const total = lines.length;
  const ranged = startLine !== undefined || endLine !== undefined;
  const sliceStart = ranged && startLine ? Math.max(0, startLine - 1) : 0;
  const sliceEnd = ranged
    ? endLine
      ? Math.min(endLine, total)
      : total
    : Math.min(DEFAULT_MAX_LINES_TEXT_FILE, total);
  const actualStart = Math.min(sliceStart, total);
  let shortened = false;
  const shown = lines.slice(actualStart, sliceEnd).map((line) => {
    if (line.length <= MAX_LINE_LENGTH_TEXT_FILE) return line;
    shortened = true;
    return `${line.substring(0, MAX_LINE_LENGTH_TEXT_FILE)}... [truncated]`;
  });
  const partial = actualStart > 0 || sliceEnd < total;
  let returnDisplay = '';
  if (partial) {
    returnDisplay = `Read lines ${actualStart + 1}-${sliceEnd} of ${total} from ${relative}`;
    if (shortened) returnDisplay += ' (some lines were shortened)';
  } else if (shortened) {
    returnDisplay = `Read all ${total} lines from ${relative} (some lines were shortened)`;
  }
  return {
    llmContent: shown.join('\n'),
    returnDisplay,
    isTruncated: partial || shortened,
    originalLineCount: total,
    linesShown: [actualStart + 1, sliceEnd],
  };
}
