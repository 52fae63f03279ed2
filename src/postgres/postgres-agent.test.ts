import { describe, expect, it } from 'vitest';
import { GeminiCliAgent, tool, z, type GeminiCliAgentOptions } from '../index.js';
import { callTurn, ScriptedModel, textTurn } from '../testing/index.js';
import { usePostgres } from '../../test/helpers/postgres.js';
import { PostgresSessionStore } from './postgres-session-store.js';

const pg = usePostgres();

function options(
  store: PostgresSessionStore,
  model: ScriptedModel,
  runs: string[],
): GeminiCliAgentOptions {
  return {
    contentGenerator: model,
    sessionStore: store,
    builtinTools: false,
    retry: false,
    approvals: 'pause',
    policy: { rules: [{ toolName: 'transfer', decision: 'ask_user' }] },
    tools: [
      tool(
        {
          name: 'transfer',
          description: 'Moves money',
          inputSchema: z.object({ amount: z.number() }),
        },
        ({ amount }) => {
          runs.push(`transfer ${amount}`);
          return 'done';
        },
      ),
    ],
  };
}

describe('the agent on PostgresSessionStore', () => {
  it('pauses for approval on one worker and is approved and finished on another', async () => {
    const first = pg.store();
    const second = new PostgresSessionStore({ connectionString: pg.url, schema: first.schema });
    const runs: string[] = [];
    const modelA = new ScriptedModel([
      callTurn({ name: 'transfer', args: { amount: 5 }, id: 't-1' }),
    ]);
    const workerA = new GeminiCliAgent(options(first, modelA, runs));
    const session = workerA.session({ sessionId: 'pay-1' });
    const kinds: string[] = [];
    for await (const e of session.sendStream('Pay 5.')) kinds.push(e.type);
    expect(kinds).toContain('approval_required');
    expect(
      (await first.listPage({ waitingForApproval: true })).sessions.map((s) => s.sessionId),
    ).toEqual(['pay-1']);
    await session.close();

    const modelB = new ScriptedModel([textTurn('Paid.')]);
    const workerB = new GeminiCliAgent(options(second, modelB, runs));
    const resumed = await workerB.resumeSession('pay-1');
    expect(resumed.pendingApprovals.map((p) => p.toolName)).toEqual(['transfer']);
    const [pending] = resumed.pendingApprovals;
    for await (const _ of resumed.resolveApprovals([
      { callId: pending!.callId, decision: 'allow' },
    ]))
      void _;
    expect(runs).toEqual(['transfer 5']);
    expect((await second.listPage({ waitingForApproval: true })).sessions).toEqual([]);
    const history = resumed.getHistory();
    expect(history.at(-1)?.parts).toEqual([{ text: 'Paid.' }]);
    await resumed.close();
    const listed = await workerA.listSessions();
    expect(listed.map((s) => [s.sessionId, s.firstPrompt, s.messageCount])).toEqual([
      ['pay-1', 'Pay 5.', 4],
    ]);
    await second.close();
    await pg.dispose(first);
  });
});
