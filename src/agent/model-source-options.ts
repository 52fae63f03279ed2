import { z } from 'zod';
import { AUTH_TYPES, type AuthType } from '../model/auth/auth-type.js';

/** The schemas of the options that choose how the model is reached: `authType` and `provider`. */
export const MODEL_SOURCE_OPTION_SCHEMAS = {
  authType: z
    .enum(AUTH_TYPES as [AuthType, ...AuthType[]], {
      error: `expected one of ${AUTH_TYPES.map((t) => `'${t}'`).join(', ')}`,
    })
    .optional(),
  provider: z
    .custom<object>(
      (v) =>
        typeof v === 'object' &&
        v !== null &&
        typeof (v as Record<string, unknown>)['id'] === 'string' &&
        typeof (v as Record<string, unknown>)['createGenerator'] === 'function',
      { error: 'expected a model provider such as openAICompatible({ baseURL, apiKey })' },
    )
    .optional(),
} satisfies Record<string, z.ZodType>;
