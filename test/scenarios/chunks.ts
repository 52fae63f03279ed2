import type { GenerateContentResponse, Part } from '@google/genai';

/** A model turn streamed as one chunk per part (the last one carries finishReason STOP). */
export function streamedTurn(parts: Part[]): GenerateContentResponse[] {
  return parts.map(
    (part, i) =>
      ({
        candidates: [
          {
            content: { role: 'model', parts: [part] },
            ...(i === parts.length - 1 ? { finishReason: 'STOP' } : {}),
            index: 0,
          },
        ],
      }) as unknown as GenerateContentResponse,
  );
}
