import type { Feature, SystemSectionProvider } from '../core/feature.js';
import {
  composeInterceptors,
  type Interceptor,
  type ModelCall,
  type ModelResponseStream,
  type Turn,
  type TurnEvents,
} from '../core/interceptors.js';
import type { AgentTool } from '../core/agent-tool.js';
import type { SessionContext } from '../core/session-context.js';
import type { LoopChains } from '../loop/loop-types.js';
import { modelTerminal } from '../loop/model-call.js';
import type { ContentGenerator } from '../model/content-generator.js';
import { toAgentTools } from '../tools/tool-provider.js';
import { allowDecision, executeTool } from '../tools/tool-scheduler.js';

/** A feature's tools for one model call, adapted to the loop's {@link AgentTool}. */
export type AgentToolProvider = (
  ctx: SessionContext,
) => readonly AgentTool[] | Promise<readonly AgentTool[]>;

/** What the agent's features add up to, composed once per agent (the model chain once per session). */
export interface FeatureChains {
  /** Every feature's tools, in feature order (fixed lists adapted once). */
  toolProviders: AgentToolProvider[];
  /** Every feature's system-prompt section, in feature order. */
  sectionProviders: SystemSectionProvider[];
  /** The decision chain around `allow` and the execution chain around the tool. */
  tools: Pick<LoopChains, 'decideTool' | 'runTool'>;
  /** The model chain around one session's model. */
  modelChain(model: ContentGenerator): LoopChains['callModel'];
  /** The turn chain around one loop run. */
  turnChain(terminal: (turn: Turn) => TurnEvents): (turn: Turn) => TurnEvents;
}

type Part = 'interceptTurn' | 'interceptModel' | 'interceptToolDecision' | 'interceptTool';
type CallOf<P extends Part> = Parameters<NonNullable<Feature[P]>>[0];
type ResultOf<P extends Part> = ReturnType<NonNullable<Feature[P]>>;

/** The features' interceptors of one kind, in feature order, each called on its feature (`this` kept). */
function interceptorsOf<P extends Part>(
  features: readonly Feature[],
  part: P,
): Array<Interceptor<CallOf<P>, ResultOf<P>>> {
  return features.flatMap((feature) => {
    const interceptor = feature[part] as Interceptor<CallOf<P>, ResultOf<P>> | undefined;
    return interceptor === undefined ? [] : [interceptor.bind(feature)];
  });
}

/** Composes the agent's features into the seams the session and the loop call. */
export function composeFeatures(features: readonly Feature[]): FeatureChains {
  const toolProviders = features.flatMap((feature): AgentToolProvider[] => {
    const { tools } = feature;
    if (tools === undefined) return [];
    if (typeof tools !== 'function') {
      const adapted = toAgentTools(tools);
      return [() => adapted];
    }
    return [
      (ctx) => {
        const offered = tools.call(feature, ctx);
        return Array.isArray(offered)
          ? toAgentTools(offered)
          : Promise.resolve(offered).then(toAgentTools);
      },
    ];
  });
  const sectionProviders = features.flatMap((feature): SystemSectionProvider[] => {
    const { systemSection } = feature;
    if (systemSection === undefined) return [];
    return typeof systemSection === 'string'
      ? [() => systemSection]
      : [(ctx) => systemSection.call(feature, ctx)];
  });
  const modelInterceptors = interceptorsOf(features, 'interceptModel');
  const turnInterceptors = interceptorsOf(features, 'interceptTurn');
  return {
    toolProviders,
    sectionProviders,
    tools: {
      decideTool: composeInterceptors(
        interceptorsOf(features, 'interceptToolDecision'),
        allowDecision,
      ),
      runTool: composeInterceptors(interceptorsOf(features, 'interceptTool'), executeTool),
    },
    modelChain: (model): ((call: ModelCall) => Promise<ModelResponseStream>) =>
      composeInterceptors(modelInterceptors, modelTerminal(model)),
    turnChain: (terminal) => composeInterceptors(turnInterceptors, terminal),
  };
}
