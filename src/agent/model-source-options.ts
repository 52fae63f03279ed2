import { z } from 'zod';
import { AUTH_TYPES, type AuthType } from '../model/auth/auth-type.js';
import { isExtensionReference } from '../extensions/extension.js';

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

/** The schemas of the extension options: `extensions`, `extensionDiscovery`, `enabledExtensions`. */
export const EXTENSION_OPTION_SCHEMAS = {
  extensions: z
    .array(
      z.custom((value) => isExtensionReference(value), {
        error: 'expected an extension made with extension({ name, ... }) or extensionDir(path)',
      }),
      { error: 'expected an array of extension(...) and extensionDir(path) values' },
    )
    .optional(),
  extensionDiscovery: z.boolean({ error: 'expected true or false' }).optional(),
  enabledExtensions: z
    .array(z.string().trim().min(1, { error: 'expected an extension name' }), {
      error: 'expected an array of extension names',
    })
    .optional(),
};

/** Both lists, as the agent's option schema spreads them. */
export const MODEL_SOURCE_AND_EXTENSION_OPTION_SCHEMAS = {
  ...MODEL_SOURCE_OPTION_SCHEMAS,
  ...EXTENSION_OPTION_SCHEMAS,
};
