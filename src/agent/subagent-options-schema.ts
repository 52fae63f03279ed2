import { z } from 'zod';
import { Subagent } from '../subagents/subagent.js';

/** The schemas of the subagent options (`subagents`, `agentDiscovery`), spread into the agent's option schemas. */
export const SUBAGENT_OPTION_SCHEMAS = {
  subagents: z
    .array(z.instanceof(Subagent), { error: 'expected an array of subagents made with subagent()' })
    .optional(),
  agentDiscovery: z
    .union(
      [
        z.boolean(),
        z.object({ user: z.boolean().optional(), workspace: z.boolean().optional() }).strict(),
      ],
      { error: 'expected true, false or { user?: boolean, workspace?: boolean }' },
    )
    .optional(),
};
