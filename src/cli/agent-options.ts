import { resolve } from 'node:path';
import type { CliOptions } from './cli-options.js';
import { createStderrLogger, skillDir, type GeminiCliAgentOptions } from './sdk.js';

/**
 * Maps the command line to agent options. Relative paths are resolved against the working directory, so
 * the files named on the command line are the ones used whatever the agent does with its `cwd`.
 */
export function agentOptionsFrom(options: CliOptions, cwd: string): GeminiCliAgentOptions {
  const agentOptions: GeminiCliAgentOptions = { cwd };
  if (options.model !== undefined) agentOptions.model = options.model;
  if (options.fakeResponses !== undefined) {
    agentOptions.fakeResponses = resolve(cwd, options.fakeResponses);
  }
  if (options.recordResponses !== undefined) {
    agentOptions.recordResponses = resolve(cwd, options.recordResponses);
  }
  if (options.includeDirectories.length > 0) {
    agentOptions.includeDirectories = options.includeDirectories.map((dir) => resolve(cwd, dir));
  }
  if (options.skills.length > 0) {
    agentOptions.skills = options.skills.map((dir) => skillDir(resolve(cwd, dir)));
  }
  if (options.approvalMode !== undefined) agentOptions.policy = { mode: options.approvalMode };
  if (options.maxTurns !== undefined) agentOptions.limits = { maxTurns: options.maxTurns };
  if (options.debug) agentOptions.logger = createStderrLogger('[gemini-agent]');
  return agentOptions;
}
