import { RequestError, type AuthenticateRequest, type AuthMethod } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import type { GeminiCliAgentOptions } from '../agent/agent-options.js';
import { GeminiAgentError } from '../errors.js';
import { resolveGeminiAuth } from '../model/auth.js';
import { invalidParams } from './acp-errors.js';
import type { AcpAuth } from './agent-factory.js';

/** gemini-cli's auth method ids (its `AuthType` values) that this agent supports. */
export const AuthMethodId = {
  GeminiApiKey: 'gemini-api-key',
  VertexAi: 'vertex-ai',
  Gateway: 'gateway',
} as const;

/** The `authMethods` of `initialize` (gemini-cli's, without Google login until the providers issue adds it). */
export function authMethods(): AuthMethod[] {
  return [
    {
      id: AuthMethodId.GeminiApiKey,
      name: 'Gemini API key',
      description: 'Use an API key with Gemini Developer API',
      _meta: { 'api-key': { provider: 'google' } },
    },
    {
      id: AuthMethodId.VertexAi,
      name: 'Vertex AI',
      description:
        'Use Vertex AI (GOOGLE_GENAI_USE_VERTEXAI=true with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION, or GOOGLE_API_KEY)',
    },
    {
      id: AuthMethodId.Gateway,
      name: 'AI API Gateway',
      description: 'Use a custom AI API Gateway',
      _meta: { gateway: { protocol: 'google', restartRequired: 'false' } },
    },
  ];
}

const Gateway = z.object({
  baseUrl: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

function authFailed(error: unknown): RequestError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof GeminiAgentError && error.code !== 'MISSING_CREDENTIALS')
    return invalidParams(message);
  return new RequestError(-32000, `Authentication required: ${message}`);
}

/**
 * `authenticate`: checks that the chosen method has usable credentials (an API key from `_meta['api-key']`, the
 * agent's options or the environment; Vertex AI settings; a gateway's base URL) and returns the credentials the
 * next sessions use. An agent with a `contentGenerator` or `fakeResponses` needs none.
 *
 * @throws RequestError `-32602` for an unknown method or a malformed `_meta`, `-32000` when credentials are missing.
 */
export async function authenticate(
  params: AuthenticateRequest,
  agent: GeminiCliAgentOptions,
  current: AcpAuth,
): Promise<AcpAuth> {
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const rawKey = meta['api-key'];
  if (rawKey !== undefined && (typeof rawKey !== 'string' || rawKey.trim() === '')) {
    throw invalidParams('_meta["api-key"] must be a non-empty string.');
  }
  const offline = agent.contentGenerator !== undefined || agent.fakeResponses !== undefined;
  const next: AcpAuth = { ...current };
  if (rawKey !== undefined) next.apiKey = rawKey;
  switch (params.methodId) {
    case AuthMethodId.GeminiApiKey:
      break;
    case AuthMethodId.VertexAi:
      if (!offline) {
        try {
          resolveGeminiAuth({ vertexai: true, ...(next.apiKey ? { apiKey: next.apiKey } : {}) });
        } catch (error) {
          throw authFailed(error);
        }
        if (!/^(true|1|yes)$/i.test(process.env['GOOGLE_GENAI_USE_VERTEXAI']?.trim() ?? '')) {
          throw authFailed(
            new Error(
              'set GOOGLE_GENAI_USE_VERTEXAI=true in the agent environment to use Vertex AI.',
            ),
          );
        }
      }
      return next;
    case AuthMethodId.Gateway: {
      const parsed = Gateway.safeParse(meta['gateway'] ?? {});
      if (!parsed.success)
        throw invalidParams(`malformed gateway payload: ${parsed.error.message}`);
      if (parsed.data.headers && Object.keys(parsed.data.headers).length > 0) {
        throw invalidParams(
          'gateway headers are not supported by this agent; pass credentials as _meta["api-key"].',
        );
      }
      if (parsed.data.baseUrl !== undefined) next.baseUrl = parsed.data.baseUrl;
      break;
    }
    default:
      throw invalidParams(
        `unknown auth method ${JSON.stringify(params.methodId)}; use one of ${Object.values(AuthMethodId).join(', ')}.`,
      );
  }
  if (!offline) {
    try {
      resolveGeminiAuth({
        ...((next.apiKey ?? agent.apiKey) ? { apiKey: next.apiKey ?? agent.apiKey } : {}),
        ...((next.baseUrl ?? agent.baseUrl) ? { baseUrl: next.baseUrl ?? agent.baseUrl } : {}),
        vertexai: false,
      });
    } catch (error) {
      throw authFailed(error);
    }
  }
  return next;
}
