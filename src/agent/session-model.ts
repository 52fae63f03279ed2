import { resolveModelId } from '../model/models.js';

/** Which model a session sends: the agent's `model`, until `session.setModel(id)` picks another. */
export class SessionModel {
  private override: string | undefined;
  private announced = false;

  constructor(private readonly agentModel: string) {}

  /** The model id the next `sendStream` sends. */
  get id(): string {
    return this.override ?? this.agentModel;
  }

  /**
   * Picks another model (`auto*` aliases mean the default model); the next stream announces it again.
   *
   * @throws ConfigurationError for an empty or non-string id.
   */
  set(model: unknown): void {
    this.override = resolveModelId(model, 'setModel');
    this.announced = false;
  }

  /** The id for the stream's `model_info` event: once, then again after each change. */
  takeAnnouncement(): string | undefined {
    if (this.announced) return undefined;
    this.announced = true;
    return this.id;
  }
}
