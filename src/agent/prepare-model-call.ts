import type { AgentTool } from '../core/agent-tool.js';
import type { SessionContext } from '../core/session-context.js';
import type { PreparedModelCall } from '../loop/loop-types.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import type { AgentServices } from './agent-services.js';
import { renderInstructions } from './instructions.js';
import type { SessionPreamble } from './session-preamble.js';
import { buildSystemPrompt } from './system-prompt.js';

/** The tools the agent's features offer now, in feature order. */
export async function offeredTools(
  services: Pick<AgentServices, 'chains'>,
  ctx: SessionContext,
): Promise<AgentTool[]> {
  const tools: AgentTool[] = [];
  for (const provider of services.chains.toolProviders) tools.push(...(await provider(ctx)));
  return tools;
}

/** What a session adds to a model call: its preamble, and which tools its policy lets the model see. */
export interface SessionCallState {
  preamble?: SessionPreamble;
  /** Keeps the tools the policy does not shut out (all of them when absent). */
  offered?(tools: AgentTool[], signal?: AbortSignal): Promise<AgentTool[]>;
}

/**
 * The system instruction (preamble, sections, memory and instructions), the `<session_context>` parts and the
 * tool registry for one model call.
 */
export async function prepareModelCall(
  services: Pick<AgentServices, 'instructions' | 'systemPrompt' | 'chains'>,
  ctx: SessionContext,
  session: SessionCallState = {},
): Promise<PreparedModelCall> {
  const instructions = await renderInstructions(services.instructions, ctx);
  const sections: Array<string | undefined> = [];
  for (const provider of services.chains.sectionProviders) sections.push(await provider(ctx));
  const all = await offeredTools(services, ctx);
  const tools = session.offered ? await session.offered(all, ctx.signal) : all;
  const systemInstruction = buildSystemPrompt({
    systemPrompt: services.systemPrompt,
    sections,
    instructions,
    ...(session.preamble ? { memory: session.preamble.memory } : {}),
  });
  return {
    ...(systemInstruction === undefined ? {} : { systemInstruction }),
    registry: new ToolRegistry(tools),
    ...(session.preamble && session.preamble.contextParts.length > 0
      ? { contextParts: session.preamble.contextParts }
      : {}),
  };
}
