import { silentLogger, type Logger } from '../../logger.js';
import { AuthCache } from '../auth/auth-cache.js';
import {
  loadGoogleAuthClient,
  type GoogleAuthType,
  type GoogleSignIn,
} from '../auth/google-auth-client.js';
import { googleClientHeaders } from '../client-headers.js';
import { resolveModel } from '../models.js';
import { CodeAssistContentGenerator } from './code-assist-generator.js';
import { CodeAssistHttp } from './code-assist-http.js';
import { codeAssistProject, setupCodeAssistUser } from './code-assist-setup.js';
import type { CodeAssistUser } from './code-assist-types.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Options of {@link createCodeAssistGenerator}. */
export interface CodeAssistGeneratorFactoryOptions {
  authType: GoogleAuthType;
  /** Why the auth type was chosen (quoted in errors). */
  reason: string;
  /** The auth type is the "nothing configured" fallback (see `loadGoogleAuthClient`). */
  implicit?: boolean;
  /** The model the session uses (for the User-Agent). */
  model?: string;
  /** Google Cloud project (default: `GOOGLE_CLOUD_PROJECT`, …). */
  project?: string;
  /** Extra headers; they beat the default ones. */
  headers?: Record<string, string>;
  sessionId?: string;
  env?: Env;
  logger?: Logger;
  /** Shares sign-in and setup between generators (the agent passes one per agent). */
  cache?: AuthCache;
  signal?: AbortSignal;
}

interface Connection {
  signIn: GoogleSignIn;
  http: CodeAssistHttp;
  user: CodeAssistUser;
}

/**
 * gemini-cli's `createCodeAssistContentGenerator`: sign in (`loadGoogleAuthClient`), set the user up
 * (`setupCodeAssistUser`: tier, project, onboarding), and return a {@link CodeAssistContentGenerator} for the
 * session. Sign-in and setup are shared through `cache` per auth type and project.
 */
export async function createCodeAssistGenerator(
  options: CodeAssistGeneratorFactoryOptions,
): Promise<CodeAssistContentGenerator> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? silentLogger;
  const cache = options.cache ?? new AuthCache();
  const headers = { ...googleClientHeaders(resolveModel(options.model), env), ...options.headers };
  const key = `code-assist|${options.authType}|${codeAssistProject({ project: options.project, env }) ?? ''}`;
  const connection = await cache.getOrCreate<Connection>(key, async () => {
    const signIn = await loadGoogleAuthClient({
      authType: options.authType,
      reason: options.reason,
      implicit: options.implicit ?? false,
      env,
      logger,
    });
    const http = new CodeAssistHttp(signIn.client, { env, headers, logger });
    const user = await setupCodeAssistUser(http, {
      env,
      logger,
      ...(options.project === undefined ? {} : { project: options.project }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    logger.debug('Code Assist ready.', {
      credentials: signIn.kind,
      projectId: user.projectId,
      userTier: user.userTier,
    });
    return { signIn, http, user };
  });
  return new CodeAssistContentGenerator({
    http: connection.http,
    user: connection.user,
    credentials: connection.signIn.kind,
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
  });
}
