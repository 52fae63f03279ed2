import path from 'node:path';

/** What kind of content a file holds, as gemini-cli's `detectFileType`. */
export type FileType = 'text' | 'image' | 'pdf' | 'audio' | 'video' | 'binary' | 'svg';

/** MIME types by extension for the media gemini-cli sends as inline data. */
const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/vnd.microsoft.icon',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
  '.pdf': 'application/pdf',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.aiff': 'audio/aiff',
  '.aif': 'audio/aiff',
  '.aac': 'audio/aac',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.flac': 'audio/flac',
  '.m4a': 'audio/mp4',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo',
  '.mpeg': 'video/mpeg',
  '.mpg': 'video/mpeg',
};

/** Extensions gemini-cli always treats as binary (its `BINARY_EXTENSIONS`). */
const BINARY_EXTENSIONS = new Set([
  '.zip',
  '.tar',
  '.gz',
  '.tgz',
  '.bz2',
  '.xz',
  '.7z',
  '.rar',
  '.exe',
  '.dll',
  '.so',
  '.dylib',
  '.bin',
  '.o',
  '.a',
  '.obj',
  '.class',
  '.jar',
  '.war',
  '.pyc',
  '.pyo',
  '.wasm',
  '.dat',
  '.db',
  '.sqlite',
  '.doc',
  '.docx',
  '.xls',
  '.xlsx',
  '.ppt',
  '.pptx',
  '.odt',
  '.ods',
  '.odp',
  '.iso',
  '.dmg',
  '.woff',
  '.woff2',
  '.ttf',
  '.otf',
  '.eot',
]);

/** The MIME type of a media file, or undefined. */
export function mediaMimeType(filePath: string): string | undefined {
  return MEDIA_TYPES[path.extname(filePath).toLowerCase()];
}

/** A Unicode byte-order mark: its encoding and length. */
interface Bom {
  encoding: 'utf8' | 'utf16le' | 'utf16be' | 'utf32le' | 'utf32be';
  length: number;
}

/** Detects a UTF-8/16/32 byte-order mark. */
export function detectBom(bytes: Uint8Array): Bom | null {
  const [b0, b1, b2, b3] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  if (bytes.length >= 4 && b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) {
    return { encoding: 'utf32le', length: 4 };
  }
  if (bytes.length >= 4 && b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) {
    return { encoding: 'utf32be', length: 4 };
  }
  if (bytes.length >= 3 && b0 === 0xef && b1 === 0xbb && b2 === 0xbf) {
    return { encoding: 'utf8', length: 3 };
  }
  if (bytes.length >= 2 && b0 === 0xff && b1 === 0xfe) return { encoding: 'utf16le', length: 2 };
  if (bytes.length >= 2 && b0 === 0xfe && b1 === 0xff) return { encoding: 'utf16be', length: 2 };
  return null;
}

function decodeUtf32(bytes: Buffer, littleEndian: boolean): string {
  let out = '';
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    const cp = littleEndian ? bytes.readUInt32LE(i) : bytes.readUInt32BE(i);
    out += cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD';
  }
  return out;
}

/** Decodes file bytes as text, honouring (and dropping) a BOM; UTF-8 otherwise. */
export function decodeText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom = detectBom(buffer);
  if (!bom) return buffer.toString('utf8');
  const body = buffer.subarray(bom.length);
  switch (bom.encoding) {
    case 'utf8':
      return body.toString('utf8');
    case 'utf16le':
      return body.toString('utf16le');
    case 'utf16be': {
      const swapped = Buffer.from(body.subarray(0, body.length - (body.length % 2)));
      swapped.swap16();
      return swapped.toString('utf16le');
    }
    case 'utf32le':
      return decodeUtf32(body, true);
    case 'utf32be':
      return decodeUtf32(body, false);
  }
}

/** gemini-cli's binary sniff: a NUL byte, or more than 30 % control bytes in the first 4 KB (BOM = text). */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  const sample = bytes.subarray(0, 4096);
  if (detectBom(sample)) return false;
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) control += 1;
  }
  return control / sample.length > 0.3;
}

/** Classifies a file by extension and content, as gemini-cli's `detectFileType`. */
export function detectFileType(filePath: string, bytes: Uint8Array): FileType {
  const ext = path.extname(filePath).toLowerCase();
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') return 'text';
  if (ext === '.svg') return 'svg';
  const mime = mediaMimeType(filePath);
  if (mime?.startsWith('image/')) return 'image';
  if (mime?.startsWith('audio/') || mime?.startsWith('video/')) {
    if (!looksBinary(bytes)) return 'text';
    return mime.startsWith('audio/') ? 'audio' : 'video';
  }
  if (mime === 'application/pdf') return 'pdf';
  if (BINARY_EXTENSIONS.has(ext)) return 'binary';
  return looksBinary(bytes) ? 'binary' : 'text';
}
