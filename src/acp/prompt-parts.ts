import { fileURLToPath } from 'node:url';
import type { ContentBlock, EmbeddedResourceResource } from '@agentclientprotocol/sdk';
import type { Part } from '@google/genai';
import type { SandboxFilesystem } from '../core/workspace-types.js';
import { invalidParams } from './acp-errors.js';

/** gemini-cli's separators around context read from referenced files and embedded resources. */
export const REFERENCE_CONTENT_START = '--- Content from referenced context ---';
export const REFERENCE_CONTENT_END = '--- End of content ---';

/** Mime types sent to the model as inline data rather than text. */
const MEDIA = /^(image|audio|video)\/|^application\/pdf$/;

/**
 * Turns an ACP prompt into Gemini parts, as gemini-cli does: text as text, images and audio as `inlineData`,
 * `file://` resource links as an `@path` reference whose file (read through `fs`, so only inside the workspace,
 * and through the editor's buffers when the client serves them) is appended after the prompt, other links as
 * `@<uri>`, and embedded resources as `@<uri>` with their text (or media) appended.
 *
 * @throws RequestError `-32602` for an empty prompt.
 */
export async function promptToParts(
  blocks: readonly ContentBlock[],
  fs: SandboxFilesystem,
): Promise<Part[]> {
  const parts: Part[] = [];
  const context: Part[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        if (block.text !== '') parts.push({ text: block.text });
        break;
      case 'image':
      case 'audio':
        parts.push({ inlineData: { mimeType: block.mimeType, data: block.data } });
        break;
      case 'resource_link': {
        const file = filePathOf(block.uri);
        parts.push({ text: `@${file ?? block.uri}` });
        if (file !== undefined) context.push(...(await readReference(fs, file, block.mimeType)));
        break;
      }
      case 'resource':
        parts.push({ text: `@${block.resource.uri}` });
        context.push(...embedded(block.resource));
        break;
    }
  }
  if (parts.length === 0) {
    throw invalidParams('the prompt has no content: send at least one non-empty content block.');
  }
  if (context.length === 0) return parts;
  return [
    ...parts,
    { text: `\n${REFERENCE_CONTENT_START}` },
    ...context,
    { text: `\n${REFERENCE_CONTENT_END}` },
  ];
}

function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith('file://')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

async function readReference(
  fs: SandboxFilesystem,
  file: string,
  mimeType: string | null | undefined,
): Promise<Part[]> {
  if (mimeType && MEDIA.test(mimeType)) {
    const bytes = await fs.readFileBytes(file);
    if (bytes !== null) {
      return [
        { text: `\nContent from @${file}:\n` },
        { inlineData: { mimeType, data: Buffer.from(bytes).toString('base64') } },
      ];
    }
  } else {
    const text = await fs.readFile(file);
    if (text !== null) return [{ text: `\nContent from @${file}:\n${text}` }];
  }
  return [
    {
      text: `\nContent from @${file}: (not read: the file is missing, unreadable or outside the workspace)`,
    },
  ];
}

function embedded(resource: EmbeddedResourceResource): Part[] {
  if ('text' in resource) return [{ text: `\nContent from @${resource.uri}:\n${resource.text}` }];
  const mimeType = resource.mimeType ?? 'application/octet-stream';
  if (MEDIA.test(mimeType)) {
    return [
      { text: `\nContent from @${resource.uri}:\n` },
      { inlineData: { mimeType, data: resource.blob } },
    ];
  }
  return [{ text: `\nContent from @${resource.uri}: (binary ${mimeType} content, not shown)` }];
}
