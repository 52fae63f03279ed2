import type { ToolCallResponseInfo } from '../sdk.js';

/**
 * The output of a tool call for stream-json's `tool_result.output`: what the model was sent
 * (`functionResponse.response.output`, e.g. the file content for `read_file`), else the tool's
 * human-readable `resultDisplay`, else undefined.
 */
export function toolOutputText(info: ToolCallResponseInfo): string | undefined {
  for (const part of info.responseParts) {
    const response = part.functionResponse?.response;
    if (response !== undefined && typeof response['output'] === 'string') return response['output'];
  }
  return typeof info.resultDisplay === 'string' ? info.resultDisplay : undefined;
}
