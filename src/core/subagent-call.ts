/**
 * Who makes a tool call when it is not the session's own model: the subagent, its run and the parent's call that
 * started it. Decision and tool interceptors see it as `check.subagent` / `run.subagent`; the policy matches rules
 * with `subagent = "<name>"` against `name`, and approval requests carry it.
 */
export interface SubagentCallInfo {
  /** The subagent's name. */
  readonly name: string;
  /** The id of this run of the subagent (a random UUID; its transcript is `chats/<sessionId>/<agentId>.jsonl`). */
  readonly agentId: string;
  /** The parent's `invoke_agent` call that started the run (undefined for a direct `subagent.run()`). */
  readonly parentCallId: string | undefined;
}
