import type { SessionConfigOption, SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import type { ApprovalMode } from '../core/policy-rule.js';
import { invalidParams } from './acp-errors.js';

/** gemini-cli's mode ids (`autoEdit`, not `auto_edit`) with its names and descriptions. */
const MODES: ReadonlyArray<SessionMode & { approvalMode: ApprovalMode }> = [
  {
    id: 'default',
    name: 'Default',
    description: 'Prompts for approval',
    approvalMode: 'default',
  },
  {
    id: 'autoEdit',
    name: 'Auto Edit',
    description: 'Auto-approves edit tools',
    approvalMode: 'auto_edit',
  },
  { id: 'yolo', name: 'YOLO', description: 'Auto-approves all tools', approvalMode: 'yolo' },
  { id: 'plan', name: 'Plan', description: 'Read-only mode', approvalMode: 'plan' },
];

/** The ACP mode id of an approval mode. */
export function modeIdOf(mode: ApprovalMode): string {
  return MODES.find((m) => m.approvalMode === mode)?.id ?? 'default';
}

/**
 * The approval mode of an ACP mode id (gemini-cli's ids; the SDK's own `auto_edit` is accepted too).
 *
 * @throws RequestError `-32602` naming the valid ids.
 */
export function approvalModeOf(modeId: string): ApprovalMode {
  const mode = MODES.find((m) => m.id === modeId || m.approvalMode === modeId);
  if (mode === undefined) {
    throw invalidParams(
      `unknown mode ${JSON.stringify(modeId)}; use one of ${MODES.map((m) => m.id).join(', ')}.`,
    );
  }
  return mode.approvalMode;
}

/** The `modes` of a session/new, load or resume response. */
export function modeState(current: ApprovalMode): SessionModeState {
  return {
    currentModeId: modeIdOf(current),
    availableModes: MODES.map(({ id, name, description }) => ({ id, name, description })),
  };
}

/** The session's config options: the mode and the model selectors. */
export function configOptions(
  mode: ApprovalMode,
  model: string,
  models: readonly string[],
): SessionConfigOption[] {
  const modelIds = models.includes(model) ? models : [model, ...models];
  return [
    {
      id: 'mode',
      name: 'Mode',
      description: 'Which tool calls run without asking',
      category: 'mode',
      type: 'select',
      currentValue: modeIdOf(mode),
      options: MODES.map(({ id, name, description }) => ({ value: id, name, description })),
    },
    {
      id: 'model',
      name: 'Model',
      description: 'The Gemini model of the next prompts',
      category: 'model',
      type: 'select',
      currentValue: model,
      options: modelIds.map((id) => ({ value: id, name: id })),
    },
  ];
}

/** Context window of Gemini models, for `usage_update.size` (1M tokens for the 2.x and 3.x families). */
export function contextWindowOf(model: string): number {
  return /gemini-1\.5-pro/.test(model) ? 2_097_152 : 1_048_576;
}
