/**
 * Throw this from a tool action to send the message to the model as `{ error: message }` instead of failing the
 * stream. The model then sees what went wrong and can retry or explain.
 *
 * @example
 * ```ts
 * throw new ModelVisibleError('The API is rate limited; try again with fewer items.');
 * ```
 */
export class ModelVisibleError extends Error {
  constructor(message: string | Error) {
    super(message instanceof Error ? message.message : message);
    this.name = 'ModelVisibleError';
  }
}
