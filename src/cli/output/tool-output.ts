import type { ToolCallResponseInfo } from '../sdk.js';

/**
 * The output of a tool call for stream-json's `tool_result.output`, as gemini-cli gives it: the tool's
 * human-readable `resultDisplay` when that is text (the error message of a failed call, `""` for a whole file
 * read), undefined when the call changed a file (gemini-cli's display is then a diff object).
 */
export function toolOutputText(info: ToolCallResponseInfo): string | undefined {
  if (info.fileDiff !== undefined) return undefined;
  return typeof info.resultDisplay === 'string' ? info.resultDisplay : undefined;
}
