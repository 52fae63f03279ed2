import type { AnyHookOutput, HookEventName, HookToolConfig } from './hook-types.js';
import { isBlocking } from './hook-output.js';

/**
 * Merges the outputs of the hooks that ran for one event with gemini-cli's strategy for that event (applied even
 * to a single output, so the defaults are the same):
 *
 * - BeforeTool, AfterTool, BeforeAgent, AfterAgent, SessionStart: OR — any `continue: false` stops, any
 *   `deny`/`block` blocks (else `ask`, else `allow`), messages joined with newlines, `additionalContext`
 *   concatenated, `clearContext` if any;
 * - BeforeModel, AfterModel: later fields replace earlier ones (`hookSpecificOutput` merged shallowly);
 * - BeforeToolSelection: a union of the allowed function names, `NONE` over `ANY` over `AUTO`;
 * - SessionEnd, PreCompress, Notification: a shallow merge, later wins.
 *
 * Returns undefined when no hook produced output.
 */
export function aggregateOutputs(
  event: HookEventName,
  outputs: readonly AnyHookOutput[],
): AnyHookOutput | undefined {
  if (outputs.length === 0) return undefined;
  switch (event) {
    case 'BeforeTool':
    case 'AfterTool':
    case 'BeforeAgent':
    case 'AfterAgent':
    case 'SessionStart':
      return mergeWithOrDecision(outputs);
    case 'BeforeModel':
    case 'AfterModel':
      return mergeWithFieldReplacement(outputs);
    case 'BeforeToolSelection':
      return mergeToolSelection(outputs);
    case 'SessionEnd':
    case 'PreCompress':
    case 'Notification':
      return outputs.reduce<AnyHookOutput>((merged, output) => ({ ...merged, ...output }), {});
    default: {
      const never: never = event;
      throw new Error(`unknown hook event ${String(never)}`);
    }
  }
}

function mergeWithOrDecision(outputs: readonly AnyHookOutput[]): AnyHookOutput {
  const merged: AnyHookOutput = { continue: true, suppressOutput: false };
  const stopReasons: string[] = [];
  const reasons: string[] = [];
  const systemMessages: string[] = [];
  const contexts: string[] = [];
  let blocked = false;
  let asked = false;
  let stopped = false;
  for (const output of outputs) {
    if (output.continue === false) {
      stopped = true;
      merged.continue = false;
      if (output.stopReason) stopReasons.push(output.stopReason);
    }
    if (isBlocking(output)) {
      blocked = true;
      merged.decision = output.decision;
    } else if (output.decision === 'ask') {
      asked = true;
      if (!blocked) merged.decision = 'ask';
    }
    if (output.reason) reasons.push(output.reason);
    if (output.systemMessage) systemMessages.push(output.systemMessage);
    if (output.suppressOutput) merged.suppressOutput = true;
    const specific = output.hookSpecificOutput;
    if (specific !== undefined) {
      const { clearContext, ...rest } = specific;
      merged.hookSpecificOutput = {
        ...merged.hookSpecificOutput,
        ...(clearContext === true ? { clearContext: true } : {}),
        ...rest,
      };
      if (typeof specific['additionalContext'] === 'string')
        contexts.push(specific['additionalContext']);
    }
  }
  if (!blocked && !asked && !stopped) merged.decision = 'allow';
  if (stopReasons.length > 0) merged.stopReason = stopReasons.join('\n');
  if (reasons.length > 0) merged.reason = reasons.join('\n');
  if (systemMessages.length > 0) merged.systemMessage = systemMessages.join('\n');
  if (contexts.length > 0) {
    merged.hookSpecificOutput = {
      ...merged.hookSpecificOutput,
      additionalContext: contexts.join('\n'),
    };
  }
  return merged;
}

function mergeWithFieldReplacement(outputs: readonly AnyHookOutput[]): AnyHookOutput {
  let merged: AnyHookOutput = {};
  for (const output of outputs) {
    merged = {
      ...merged,
      ...output,
      hookSpecificOutput: { ...merged.hookSpecificOutput, ...output.hookSpecificOutput },
    };
  }
  return merged;
}

function mergeToolSelection(outputs: readonly AnyHookOutput[]): AnyHookOutput {
  const names = new Set<string>();
  let none = false;
  let forced = false;
  for (const output of outputs) {
    const config = output.hookSpecificOutput?.['toolConfig'] as HookToolConfig | undefined;
    if (config === undefined) continue;
    if (config.mode === 'NONE') none = true;
    else if (config.mode === 'ANY') forced = true;
    for (const name of config.allowedFunctionNames ?? []) names.add(name);
  }
  const toolConfig: Required<HookToolConfig> = none
    ? { mode: 'NONE', allowedFunctionNames: [] }
    : { mode: forced ? 'ANY' : 'AUTO', allowedFunctionNames: [...names].sort() };
  return { hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig } };
}
