import { ResponseTooLargeError } from '../errors.js';

/**
 * Passes an HTTP response through with a byte limit on its body: once more than `maxBytes` arrived, the body
 * errors with {@link ResponseTooLargeError} and the connection is cancelled, so a runaway answer is never buffered
 * whole (the client would otherwise build one huge string, and past ~512 MB fail with `RangeError: Invalid string
 * length`). Responses without a body (or not OK) are returned as they are.
 */
export function capResponseBody(response: Response, maxBytes: number): Response {
  if (!response.ok || response.body === null) return response;
  let received = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (received > maxBytes) {
        controller.error(new ResponseTooLargeError(maxBytes));
        return;
      }
      controller.enqueue(chunk);
    },
  });
  const capped = new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  return capped;
}
