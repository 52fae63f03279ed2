import type { Feature } from '../core/feature.js';
import type { Logger } from '../logger.js';
import { truncateToolResult, truncationThreshold } from './tool-output-truncation.js';

/** What the context feature needs from the agent. */
export interface ContextFeatureOptions {
  /** Characters of one result the model may see (0: no truncation). */
  truncateToolOutputThreshold: number;
  /** The model's context window for a session that has not reported one yet. */
  defaultTokenLimit: number;
  /** The project's temp dir for a working directory (`~/.gemini/tmp/<project>`), where full outputs go. */
  projectTempDir(cwd: string): Promise<string>;
  logger: Logger;
}

/**
 * Tool-output truncation as a feature: a tool interceptor (the outermost, so it sees the result every other
 * feature handed back) that cuts a result longer than the threshold — or than what the context window has left,
 * 4 characters a token — to gemini-cli's head, tail and pointer, saving the full text under
 * `<project temp dir>/tool-outputs/session-<id>/`. Emits a `warning` (`TOOL_OUTPUT_TRUNCATED`) with the sizes.
 */
export function createContextFeature(options: ContextFeatureOptions): Feature {
  return {
    name: 'context',
    async interceptTool(run, next) {
      const result = await next();
      if (options.truncateToolOutputThreshold <= 0) return result;
      const window = run.ctx.session.contextWindow;
      const threshold = truncationThreshold(
        options.truncateToolOutputThreshold,
        window?.tokenLimit ?? options.defaultTokenLimit,
        window?.estimatedTokens,
      );
      const cut = await truncateToolResult(result, {
        toolName: run.tool.name,
        callId: run.request.callId,
        sessionId: run.ctx.sessionId,
        projectTempDir: () => options.projectTempDir(run.ctx.cwd),
        threshold,
      });
      if (cut === undefined) return result;
      options.logger.debug('tool output truncated', {
        tool: run.tool.name,
        originalLength: cut.originalLength,
        threshold,
        outputFile: cut.outputFile,
      });
      run.emit({
        type: 'warning',
        value: {
          code: 'TOOL_OUTPUT_TRUNCATED',
          source: 'context',
          message: `The output of ${run.tool.name} (${cut.originalLength.toLocaleString('en-US')} characters) was cut to ${threshold.toLocaleString('en-US')} for the model; the full output is in ${cut.outputFile}.`,
        },
      });
      return cut.result;
    },
  };
}
