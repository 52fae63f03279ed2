import type { ServerGeminiStreamEvent } from './sdk.js';

/**
 * What gemini-cli's headless mode prints on stderr for hook events: `Agent execution stopped: …`,
 * `[WARNING] Agent execution blocked: …` (the hook's `systemMessage`, else its reason) and each hook
 * `systemMessage` on a line of its own. Undefined for other events.
 */
export function hookEventLine(event: ServerGeminiStreamEvent): string | undefined {
  switch (event.type) {
    case 'agent_execution_stopped':
      return `Agent execution stopped: ${event.value.systemMessage?.trim() || event.value.reason}\n`;
    case 'agent_execution_blocked':
      return `[WARNING] Agent execution blocked: ${event.value.systemMessage?.trim() || event.value.reason}\n`;
    case 'hook_system_message':
      return `${event.value.message}\n`;
    default:
      return undefined;
  }
}
