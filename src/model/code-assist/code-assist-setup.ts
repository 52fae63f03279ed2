import { AuthenticationError, ModelApiError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import { abortableSleep } from '../../core/abort.js';
import type { CodeAssistHttp } from './code-assist-http.js';
import {
  LoadCodeAssistResponse,
  LongRunningOperationResponse,
  UserTierId,
  type ClientMetadata,
  type CodeAssistUser,
  type GeminiUserTier,
} from './code-assist-types.js';

type Env = Readonly<Record<string, string | undefined>>;

const CLIENT_METADATA: ClientMetadata = {
  ideType: 'IDE_UNSPECIFIED',
  platform: 'PLATFORM_UNSPECIFIED',
  pluginType: 'GEMINI',
};

/** Options of {@link setupCodeAssistUser}. */
export interface CodeAssistSetupOptions {
  /**
   * The Google Cloud project. Default: `GOOGLE_CLOUD_PROJECT`, then `GOOGLE_CLOUD_PROJECT_ID` (in Cloud Shell,
   * gemini-cli's `cloudshell-gca` instead, because Cloud Shell sets `GOOGLE_CLOUD_PROJECT` to gcloud's project).
   */
  project?: string;
  env?: Env;
  /** Wait between polls of the onboarding operation (gemini-cli: 5000 ms). */
  pollIntervalMs?: number;
  signal?: AbortSignal;
  logger?: Logger;
}

/** The project gemini-cli uses for Code Assist, from options and the environment. */
export function codeAssistProject(
  options: Pick<CodeAssistSetupOptions, 'project' | 'env'>,
): string | undefined {
  const env = options.env ?? process.env;
  if (options.project) return options.project;
  if (env['CLOUD_SHELL'] === 'true') return 'cloudshell-gca';
  return env['GOOGLE_CLOUD_PROJECT'] || env['GOOGLE_CLOUD_PROJECT_ID'] || undefined;
}

/**
 * gemini-cli 0.61's `setupUser()`: `:loadCodeAssist` with the project (if any); a user with a current tier is
 * ready (project from the answer, else the configured one); otherwise `:onboardUser` with the default allowed
 * tier (the free tier without a project, as a managed project is used), polling the long-running operation
 * until done. The user tier is the paid tier's id if there is one, else the current tier's (default
 * `standard-tier`).
 *
 * @throws AuthenticationError `AUTH_PROJECT_ID_INVALID` (a numeric project number), `AUTH_VALIDATION_REQUIRED`
 *   (the account must be verified in a browser first; the URL is in the message), `AUTH_INELIGIBLE_TIER` (the
 *   server's reasons), `AUTH_PROJECT_REQUIRED` (set GOOGLE_CLOUD_PROJECT); ModelApiError for API failures.
 */
export async function setupCodeAssistUser(
  http: CodeAssistHttp,
  options: CodeAssistSetupOptions = {},
): Promise<CodeAssistUser> {
  const logger = options.logger ?? silentLogger;
  const projectId = codeAssistProject(options);
  if (projectId && /^\d+$/.test(projectId)) {
    throw new AuthenticationError(
      `Invalid Google Cloud Project ID: "${projectId}". The GOOGLE_CLOUD_PROJECT (or GOOGLE_CLOUD_PROJECT_ID) ` +
        'environment variable must be set to your string-based Project ID (e.g., "my-project-123"), not your ' +
        'numeric Project Number. Please update your environment variables.',
      { code: 'AUTH_PROJECT_ID_INVALID' },
    );
  }
  const loadRes = await loadCodeAssist(http, projectId, options.signal);
  validateLoadCodeAssistResponse(loadRes);

  if (loadRes.currentTier) {
    const current = loadRes.currentTier;
    if (!loadRes.paidTier?.id && !current.id) {
      logger.warn('Code Assist API did not return a user tier ID. Defaulting to STANDARD tier.');
    }
    const user = (project: string): CodeAssistUser => ({
      projectId: project,
      userTier: loadRes.paidTier?.id ?? current.id ?? UserTierId.STANDARD,
      userTierName: loadRes.paidTier?.name ?? current.name,
      paidTier: loadRes.paidTier ?? undefined,
      hasOnboardedPreviously: current.hasOnboardedPreviously ?? true,
    });
    if (loadRes.cloudaicompanionProject) return user(loadRes.cloudaicompanionProject);
    if (projectId) return user(projectId);
    throw ineligibleOrProjectIdError(loadRes);
  }

  const tier = onboardTier(loadRes);
  if (!tier.id) {
    logger.warn(
      'Code Assist API did not return an onboarding tier ID. Defaulting to STANDARD tier.',
    );
  }
  // The free tier uses a managed project: sending a project makes onboardUser fail with Precondition Failed.
  const onboardReq =
    tier.id === UserTierId.FREE
      ? { tierId: tier.id, cloudaicompanionProject: undefined, metadata: CLIENT_METADATA }
      : {
          tierId: tier.id,
          cloudaicompanionProject: projectId,
          metadata: { ...CLIENT_METADATA, duetProject: projectId },
        };
  logger.debug('Onboarding the account to Code Assist.', { tier: tier.id });
  let lro = LongRunningOperationResponse.parse(
    await http.post('onboardUser', onboardReq, options.signal),
  );
  const operation = lro.name;
  while (!lro.done && operation) {
    await abortableSleep(options.pollIntervalMs ?? 5000, options.signal);
    lro = LongRunningOperationResponse.parse(await http.getOperation(operation, options.signal));
  }
  const onboarded = lro.response?.cloudaicompanionProject?.id;
  const result = (project: string): CodeAssistUser => ({
    projectId: project,
    userTier: tier.id ?? UserTierId.STANDARD,
    userTierName: tier.name,
    paidTier: undefined,
    hasOnboardedPreviously: tier.hasOnboardedPreviously ?? false,
  });
  if (onboarded) return result(onboarded);
  if (projectId) return result(projectId);
  throw ineligibleOrProjectIdError(loadRes);
}

async function loadCodeAssist(
  http: CodeAssistHttp,
  projectId: string | undefined,
  signal: AbortSignal | undefined,
): Promise<LoadCodeAssistResponse> {
  try {
    const raw = await http.post(
      'loadCodeAssist',
      {
        cloudaicompanionProject: projectId,
        metadata: { ...CLIENT_METADATA, duetProject: projectId },
      },
      signal,
    );
    const parsed = LoadCodeAssistResponse.safeParse(raw);
    if (!parsed.success) {
      throw new ModelApiError(
        `Code Assist API loadCodeAssist answered with an unexpected shape: ${parsed.error.issues[0]?.message}.`,
      );
    }
    return parsed.data;
  } catch (error) {
    // gemini-cli: a VPC Service Controls violation means a standard-tier user behind VPC-SC.
    if (isVpcScViolation(error)) return { currentTier: { id: UserTierId.STANDARD } };
    if (error instanceof ModelApiError && error.status === 403 && projectId === 'cloudshell-gca') {
      throw new AuthenticationError(
        'Access to the default Cloud Shell Gemini project was denied.\nPlease set your own Google Cloud ' +
          'project by running:\ngcloud config set project [PROJECT_ID]\nor setting export GOOGLE_CLOUD_PROJECT=...',
        { code: 'AUTH_PROJECT_DENIED' },
      );
    }
    throw error;
  }
}

function isVpcScViolation(error: unknown): boolean {
  const body = (error as { body?: unknown } | null)?.body;
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  return (
    Array.isArray(details) &&
    details.some(
      (d: unknown) =>
        typeof d === 'object' &&
        d !== null &&
        (d as { reason?: unknown }).reason === 'SECURITY_POLICY_VIOLATED',
    )
  );
}

function validateLoadCodeAssistResponse(res: LoadCodeAssistResponse): void {
  if (res.currentTier || !res.ineligibleTiers?.length) return;
  const tier = res.ineligibleTiers.find(
    (t) => t.validationUrl && t.reasonCode === 'VALIDATION_REQUIRED',
  );
  if (tier?.validationUrl) {
    throw new AuthenticationError(
      `Account validation required: ${tier.reasonMessage ?? 'verify your account'}. Open ${tier.validationUrl} ` +
        'in a browser, complete the verification, then try again.',
      { code: 'AUTH_VALIDATION_REQUIRED' },
    );
  }
}

function onboardTier(res: LoadCodeAssistResponse): GeminiUserTier {
  for (const tier of res.allowedTiers ?? []) if (tier.isDefault) return tier;
  return {
    name: '',
    description: '',
    id: UserTierId.LEGACY,
    userDefinedCloudaicompanionProject: true,
  };
}

function ineligibleOrProjectIdError(res: LoadCodeAssistResponse): AuthenticationError {
  if (res.ineligibleTiers && res.ineligibleTiers.length > 0) {
    const reasons = res.ineligibleTiers.map((t) => t.reasonMessage).join(', ');
    return new AuthenticationError(
      `This account cannot use Gemini Code Assist: ${reasons}. Set GOOGLE_CLOUD_PROJECT to a project with ` +
        'Gemini Code Assist, or use another auth method (e.g. GEMINI_API_KEY).',
      { code: 'AUTH_INELIGIBLE_TIER' },
    );
  }
  return new AuthenticationError(
    'This account requires setting the GOOGLE_CLOUD_PROJECT or GOOGLE_CLOUD_PROJECT_ID env var. See ' +
      'https://goo.gle/gemini-cli-auth-docs#workspace-gca',
    { code: 'AUTH_PROJECT_REQUIRED' },
  );
}
