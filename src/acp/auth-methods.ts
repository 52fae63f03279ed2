import { RequestError, type AuthenticateRequest, type AuthMethod } from '@agentclientprotocol/sdk';
import { z } from 'zod';
import type { GeminiCliAgentOptions } from '../agent/agent-options.js';
import { AuthenticationError, GeminiAgentError } from '../errors.js';
import { resolveGeminiAuth } from '../model/auth.js';
import { AuthType } from '../model/auth/auth-type.js';
import type { AuthType as AuthTypeValue } from '../model/auth/auth-type.js';
import { readCachedCredentials } from '../model/auth/oauth-credentials-file.js';
import { invalidParams } from './acp-errors.js';
import type { AcpAuth } from './agent-factory.js';

/** The `authMethods` of `initialize`: gemini-cli's, with its ids (its `AuthType` values) and texts. */
export function authMethods(): AuthMethod[] {
  return [
    {
      id: AuthType.LOGIN_WITH_GOOGLE,
      name: 'Log in with Google',
      description:
        'Log in with your Google account (uses the login cached by `gemini-agent login` or gemini-cli)',
    },
    {
      id: AuthType.USE_GEMINI,
      name: 'Gemini API key',
      description: 'Use an API key with Gemini Developer API',
      _meta: { 'api-key': { provider: 'google' } },
    },
    {
      id: AuthType.USE_VERTEX_AI,
      name: 'Vertex AI',
      description: 'Use an API key with Vertex AI GenAI API',
    },
    {
      id: AuthType.GATEWAY,
      name: 'AI API Gateway',
      description: 'Use a custom AI API Gateway',
      _meta: { gateway: { protocol: 'google', restartRequired: 'false' } },
    },
  ];
}

const METHOD_IDS: readonly string[] = authMethods().map((m) => m.id);

const Gateway = z.object({
  baseUrl: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

/** Missing or unusable credentials → `-32000` (authentication required); a bad value → `-32602`. */
function authFailed(error: unknown): RequestError {
  const message = error instanceof Error ? error.message : String(error);
  const credentials =
    error instanceof AuthenticationError ||
    (error instanceof GeminiAgentError && error.code === 'MISSING_CREDENTIALS');
  if (error instanceof GeminiAgentError && !credentials) return invalidParams(message);
  return new RequestError(-32000, `Authentication required: ${message}`);
}

/**
 * `authenticate`: checks that the chosen method has usable credentials — an API key from `_meta["api-key"]`, the
 * agent's options or the environment; Vertex AI settings; a gateway's base URL (`_meta.gateway.baseUrl`); a cached
 * Google login — and returns what the next sessions use (the method becomes their `authType`). An agent with a
 * `contentGenerator` or `fakeResponses` needs no credentials.
 *
 * @throws RequestError `-32602` for an unknown method or a malformed `_meta`, `-32000` when credentials are missing.
 */
export async function authenticate(
  params: AuthenticateRequest,
  agent: GeminiCliAgentOptions,
  current: AcpAuth,
): Promise<AcpAuth> {
  if (!METHOD_IDS.includes(params.methodId)) {
    throw invalidParams(
      `unknown auth method ${JSON.stringify(params.methodId)}; use one of ${METHOD_IDS.join(', ')}.`,
    );
  }
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const rawKey = meta['api-key'];
  if (rawKey !== undefined && (typeof rawKey !== 'string' || rawKey.trim() === '')) {
    throw invalidParams('_meta["api-key"] must be a non-empty string.');
  }
  const next: AcpAuth = { ...current, authType: params.methodId as AuthTypeValue };
  if (rawKey !== undefined) next.apiKey = rawKey;
  if (params.methodId === AuthType.GATEWAY) {
    const parsed = Gateway.safeParse(meta['gateway'] ?? {});
    if (!parsed.success) throw invalidParams(`malformed gateway payload: ${parsed.error.message}`);
    if (parsed.data.headers && Object.keys(parsed.data.headers).length > 0) {
      throw invalidParams(
        'gateway headers are not supported over ACP; set GEMINI_CLI_CUSTOM_HEADERS in the agent environment.',
      );
    }
    if (parsed.data.baseUrl !== undefined) next.baseUrl = parsed.data.baseUrl;
  }
  if (agent.contentGenerator !== undefined || agent.fakeResponses !== undefined) return next;
  if (params.methodId === AuthType.LOGIN_WITH_GOOGLE) {
    const { found } = await readCachedCredentials();
    if (!found.some((c) => c.origin === 'oauth')) {
      throw authFailed(
        new AuthenticationError(
          'no cached Google login: run `gemini-agent login` (or `/auth` in gemini) in a terminal, then authenticate again.',
          { authType: params.methodId },
        ),
      );
    }
    return next;
  }
  try {
    const apiKey = next.apiKey ?? agent.apiKey;
    const baseUrl = next.baseUrl ?? agent.baseUrl;
    resolveGeminiAuth({
      authType: params.methodId as 'gemini-api-key' | 'vertex-ai' | 'gateway',
      ...(apiKey ? { apiKey } : {}),
      ...(baseUrl ? { baseUrl } : {}),
    });
  } catch (error) {
    throw authFailed(error);
  }
  return next;
}
