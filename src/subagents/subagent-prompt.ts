import { ConfigurationError } from '../errors.js';
import type { SessionContext } from '../core/session-context.js';
import type { SessionRuntime } from '../core/session-runtime.js';
import { COMPLETE_TASK_TOOL_NAME } from './complete-task-tool.js';
import type { ResolvedSubagent } from './subagent-types.js';

/** The inputs a markdown agent's prompt may name: `${query}` plus gemini-cli's runtime values. */
export type SubagentInputs = Readonly<Record<string, unknown>>;

/**
 * gemini-cli's `templateString`: replaces `${word}` with the input of that name.
 *
 * @throws ConfigurationError `Template validation failed: Missing required input parameters: …` for a name that has
 *   no input.
 */
export function templateString(template: string, inputs: SubagentInputs): string {
  const pattern = /\$\{(\w+)\}/g;
  const missing = [...template.matchAll(pattern)]
    .map((m) => m[1] as string)
    .filter((key) => !Object.hasOwn(inputs, key));
  if (missing.length > 0) {
    throw new ConfigurationError(
      `Template validation failed: Missing required input parameters: ${[...new Set(missing)].join(', ')}. ` +
        `Available inputs: ${Object.keys(inputs).join(', ')}`,
    );
  }
  return template.replace(pattern, (_, key: string) => String(inputs[key]));
}

const COMMON_RULES = `
Important Rules:
* You are running in a non-interactive mode. You CANNOT ask the user for input or clarification.
* Work systematically using available tools to complete your task.
* Always use absolute paths for file operations. Construct them using the provided "Environment Context".
* If a tool call is rejected by the user, acknowledge the rejection, rethink your strategy, and try a different approach. Do not repeatedly attempt the same rejected operation.`;

const T = `\`${COMPLETE_TASK_TOOL_NAME}\``;

const OUTPUT_RULES = `
* When you have completed your task, you MUST call the ${T} tool with your structured output.
* Do not call any other tools in the same turn as ${T}.
* This is the ONLY way to complete your mission. If you stop calling tools without calling this, you have failed.`;

const RESULT_RULES = `
* When you have completed your task, you MUST call the ${T} tool.
* You MUST include your final findings in the "result" parameter. This is how you return the necessary results for the task to be marked complete.
* Ensure your findings are comprehensive and follow any specific formatting requirements provided in your instructions.
* Do not call any other tools in the same turn as ${T}.
* This is the ONLY way to complete your mission. If you stop calling tools without calling this, you have failed.`;

/**
 * The system prompt of a run, as gemini-cli's `LocalAgentExecutor.buildSystemPrompt`: the agent's prompt
 * (templated for markdown agents), the session's memory, `# Environment Context` with the workspace directories,
 * the plan-mode constraint, then the fixed "Important Rules" (with or without an output schema).
 */
export async function buildSubagentSystemPrompt(
  definition: ResolvedSubagent,
  runtime: Pick<SessionRuntime, 'memory' | 'roots' | 'approvalMode'>,
  ctx: SessionContext,
  inputs: SubagentInputs,
): Promise<string> {
  const raw =
    typeof definition.instructions === 'function'
      ? await definition.instructions(ctx)
      : definition.instructions;
  if (typeof raw !== 'string') {
    throw new ConfigurationError(
      `Subagent "${definition.name}": instructions must be a string or a function returning one.`,
    );
  }
  let prompt = definition.templated ? templateString(raw, inputs) : raw;
  if (runtime.memory !== undefined) prompt += `\n\n${runtime.memory.trim()}`;
  const dirs = runtime.roots.filter((r) => !r.readOnly).map((r) => `  - ${r.path}`);
  prompt += `\n\n# Environment Context\n- **Workspace Directories:**\n${dirs.join('\n')}`;
  if (runtime.approvalMode() === 'plan') {
    prompt +=
      '\n\n# Execution Constraints\nYou are currently operating in Plan Mode. Your write tools are globally ' +
      'restricted: do not attempt to modify source code directly.';
  }
  return prompt + COMMON_RULES + (definition.output ? OUTPUT_RULES : RESULT_RULES);
}

/** gemini-cli's `# Available Sub-Agents` section, for the parent's system prompt. */
export function renderAvailableSubagents(
  agents: ReadonlyArray<Pick<ResolvedSubagent, 'name' | 'description'>>,
): string | undefined {
  if (agents.length === 0) return undefined;
  const xml = agents
    .map(
      (agent) => `  <subagent>
    <name>${agent.name}</name>
    <description>${agent.description}</description>
  </subagent>`,
    )
    .join('\n');
  return `# Available Sub-Agents

Sub-agents are specialized expert agents. You can invoke them using the \`invoke_agent\` tool by passing their name to the \`agent_name\` parameter. You MUST delegate tasks to the sub-agent with the most relevant expertise.

### Strategic Orchestration & Delegation
Operate as a **strategic orchestrator**. Your own context window is your most precious resource. Every turn you take adds to the permanent session history. To keep the session fast and efficient, use sub-agents to "compress" complex or repetitive work.

When you delegate, the sub-agent's entire execution is consolidated into a single summary in your history, keeping your main loop lean.

**Concurrency Safety and Mandate:** You should NEVER run multiple subagents in a single turn if their abilities mutate the same files or resources. This is to prevent race conditions and ensure that the workspace is in a consistent state. Only run multiple subagents in parallel when their tasks are independent (e.g., multiple concurrent research or read-only tasks) or if parallel execution is explicitly requested by the user.

**High-Impact Delegation Candidates:**
- **Repetitive Batch Tasks:** Tasks involving more than 3 files or repeated steps (e.g., "Add license headers to all files in src/", "Fix all lint errors in the project").
- **High-Volume Output:** Commands or tools expected to return large amounts of data (e.g., verbose builds, exhaustive file searches).
- **Speculative Research:** Investigations that require many "trial and error" steps before a clear path is found.

**Assertive Action:** Continue to handle "surgical" tasks directly—simple reads, single-file edits, or direct questions that can be resolved in 1-2 turns. Delegation is an efficiency tool, not a way to avoid direct action when it is the fastest path.

<available_subagents>
${xml}
</available_subagents>

Remember that the closest relevant sub-agent should still be used even if its expertise is broader than the given task.

For example:
- A license-agent -> Should be used for a range of tasks, including reading, validating, and updating licenses and headers.
- A test-fixing-agent -> Should be used both for fixing tests as well as investigating test failures.`;
}

/** gemini-cli's warning before the one grace turn. */
export function finalWarningMessage(
  reason: 'TIMEOUT' | 'MAX_TURNS' | 'ERROR_NO_COMPLETE_TASK_CALL',
): string {
  const explanation =
    reason === 'TIMEOUT'
      ? 'You have exceeded the time limit.'
      : reason === 'MAX_TURNS'
        ? 'You have exceeded the maximum number of turns.'
        : 'You have stopped calling tools without finishing.';
  return `${explanation} You have one final chance to complete the task with a short grace period. You MUST call ${T} immediately with your best answer and explain that your investigation was interrupted. Do not call any other tools.`;
}
