import type { Content } from '@google/genai';
import type { SessionContext } from '../core/session-context.js';
import type { SessionLogEntry } from '../core/session-log.js';
import { addUsage, type TokenUsage } from '../core/usage.js';
import { compressHistory } from '../context/chat-compression.js';
import { estimateTokens } from '../loop/context-window.js';
import {
  DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD,
  saveTruncatedToolOutput,
} from '../context/tool-output-truncation.js';
import { CompressionStatus, type ChatCompressedInfo } from '../events.js';
import type { ContentGenerator } from '../model/content-generator.js';
import { geminiHome } from '../settings/settings-paths.js';
import type { AgentServices } from './agent-services.js';
import { compressionNote } from '../sessions/session-notes.js';
import { projectTempDir } from './session-preamble.js';
import type { ContextTracker } from '../loop/context-window.js';
import type { ConversationHistory } from '../loop/conversation-history.js';
import type { SessionLog } from '../core/session-log.js';
import type { Workspace } from '../workspace/workspace.js';
import type { SessionPreamble } from './session-preamble.js';
import type { BudgetTracker } from '../context/budget.js';

/** The session a compression runs in. */
export interface CompressionRun {
  services: AgentServices;
  /** The session's state (the history, its log and its accounting). */
  state: {
    history: ConversationHistory;
    log: SessionLog;
    context: ContextTracker;
    workspace: Pick<Workspace, 'cwd'>;
    preamble: Pick<SessionPreamble, 'contextParts'>;
    /** The session's budget: the summary calls count in it. */
    budget?: Pick<BudgetTracker, 'record'>;
  };
  /** The model the session sends to (the summary is made by it). */
  model: string;
  /** The session's running usage total: the summary calls are added to it. */
  usage: TokenUsage;
  /** A fresh context (its transcript is the history about to be compressed). */
  ctx: SessionContext;
  emit: Parameters<NonNullable<AgentServices['features'][number]['beforeCompress']>>[0]['emit'];
  signal: AbortSignal | undefined;
}

/** How each turn of a compressed history is stored. */
function entryOf(content: Content, timestamp: string, model: string): SessionLogEntry {
  const parts = content.parts ?? [];
  if (content.role === 'model') return { kind: 'model', content, timestamp, model };
  const results = parts.length > 0 && parts.every((p) => p.functionResponse !== undefined);
  return { kind: results ? 'tool_results' : 'user', content, timestamp };
}

/**
 * One session's compression, as gemini-cli's `GeminiClient.tryCompressChat`: remembers a failed (inflated) summary
 * so that later automatic compressions only cut tool outputs, fires the features' `beforeCompress` (the PreCompress
 * hook), and when the history changed, replaces it in memory and in the store (one `{"$set":{"messages":…}}`
 * checkpoint, which gemini-cli writes too and which every reader, gemini-cli's included, folds on resume).
 */
export class SessionCompressor {
  private failedAttempt = false;

  constructor(private readonly generator: ContentGenerator) {}

  /**
   * Compresses if `force` or the history reached the threshold. PreCompress fires only then (gemini-cli fires it
   * before every model call, threshold or not: the SDK spares command hooks that process spawn per call).
   */
  async run(run: CompressionRun, force: boolean): Promise<ChatCompressedInfo> {
    const { services, state } = run;
    const history = state.history.view();
    const tokenLimit = services.context.tokenLimit(run.model);
    const threshold = services.context.compressionThreshold;
    // gemini-cli's figure is the last promptTokenCount; without one, the estimate of what such a request would hold.
    const originalTokenCount =
      state.context.lastCount ??
      state.context.estimate(history) + estimateTokens(state.preamble.contextParts);
    const due = force || (threshold !== undefined && originalTokenCount >= threshold * tokenLimit);
    if (history.length === 0 || !due) {
      const tokens = history.length === 0 ? 0 : originalTokenCount;
      return {
        originalTokenCount: tokens,
        newTokenCount: tokens,
        compressionStatus: CompressionStatus.NOOP,
      };
    }
    await this.fireBeforeCompress(run, force ? 'manual' : 'auto');
    if (force) return this.compress(run, { force, originalTokenCount, tokenLimit, threshold });
    try {
      return await this.compress(run, { force, originalTokenCount, tokenLimit, threshold });
    } catch (error) {
      // An automatic compression that fails (the summary call failed for good) does not fail the turn: the
      // history stays as it was, and the overflow check still stops a request that cannot fit.
      if (run.signal?.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      services.logger.warn('automatic compression failed; the history is kept', { error: message });
      run.emit({
        type: 'warning',
        value: {
          code: 'COMPRESSION_FAILED',
          source: 'context',
          message: `Compressing the history failed: ${message}`,
        },
      });
      return {
        originalTokenCount,
        newTokenCount: originalTokenCount,
        compressionStatus: CompressionStatus.NOOP,
      };
    }
  }

  private async compress(
    run: CompressionRun,
    figures: {
      force: boolean;
      originalTokenCount: number;
      tokenLimit: number;
      threshold: number | undefined;
    },
  ): Promise<ChatCompressedInfo> {
    const { services, state } = run;
    const { force, originalTokenCount, tokenLimit, threshold } = figures;
    const history = state.history.view();
    const tempDir = projectTempDir(geminiHome(), state.workspace.cwd);
    const { newHistory, info } = await compressHistory({
      history,
      force,
      originalTokenCount,
      tokenLimit,
      threshold,
      hasFailedCompressionAttempt: this.failedAttempt,
      // gemini-cli's getTruncateToolOutputThreshold: the setting, or what the window has left (4 characters a token).
      truncateThreshold: Math.max(
        1000,
        Math.min(
          4 * (tokenLimit - originalTokenCount),
          services.context.truncateToolOutputThreshold || DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD,
        ),
      ),
      contextParts: state.preamble.contextParts,
      save: async (content, toolName, callId) =>
        saveTruncatedToolOutput(content, toolName, callId, await tempDir, run.ctx.sessionId),
      generate: async (request) => {
        const response = await this.generator.generateContent(
          { ...request, model: run.model },
          run.signal,
        );
        addUsage(run.usage, response.usageMetadata);
        state.budget?.record(run.model, response.usageMetadata);
        return response;
      },
    });
    if (info.compressionStatus === CompressionStatus.COMPRESSION_FAILED_INFLATED_TOKEN_COUNT) {
      this.failedAttempt ||= !force;
    }
    if (newHistory !== undefined) {
      if (info.compressionStatus === CompressionStatus.COMPRESSED) this.failedAttempt = false;
      const timestamp = new Date().toISOString();
      await state.log.replaceHistory?.(newHistory.map((c) => entryOf(c, timestamp, run.model)));
      state.history.replace(newHistory);
      state.context.reset(info.newTokenCount, newHistory.length);
      // After the checkpoint, so that it survives it: the line gemini-cli shows, with the figures.
      await state.log.appendNote?.(
        compressionNote(info, { tokenLimit, trigger: force ? 'manual' : 'auto' }, timestamp),
      );
    }
    return info;
  }

  private async fireBeforeCompress(run: CompressionRun, trigger: 'manual' | 'auto'): Promise<void> {
    for (const feature of run.services.features) {
      if (feature.beforeCompress === undefined) continue;
      try {
        await feature.beforeCompress({ trigger, ctx: run.ctx, emit: run.emit });
      } catch (error) {
        run.services.logger.warn('a beforeCompress part failed; compressing anyway', {
          feature: feature.name,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
}
