import type { AgentTool } from '../core/agent-tool.js';
import type { SessionContext } from '../core/session-context.js';
import type { PreparedModelCall } from '../loop/loop-types.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import type { AgentServices } from './agent-services.js';
import { renderInstructions } from './instructions.js';
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

/** The system instruction (sections, then the instructions) and the tool registry for one model call. */
export async function prepareModelCall(
  services: Pick<AgentServices, 'instructions' | 'systemPrompt' | 'chains'>,
  ctx: SessionContext,
): Promise<PreparedModelCall> {
  const instructions = await renderInstructions(services.instructions, ctx);
  const sections: Array<string | undefined> = [];
  for (const provider of services.chains.sectionProviders) sections.push(await provider(ctx));
  const tools = await offeredTools(services, ctx);
  const systemInstruction = buildSystemPrompt({
    systemPrompt: services.systemPrompt,
    sections,
    instructions,
  });
  return {
    ...(systemInstruction === undefined ? {} : { systemInstruction }),
    registry: new ToolRegistry(tools),
  };
}
