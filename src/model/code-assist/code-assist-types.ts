import { z } from 'zod';

/** User tier ids the Code Assist API returns (gemini-cli's `UserTierId`; the server may send others). */
export const UserTierId = {
  FREE: 'free-tier',
  LEGACY: 'legacy-tier',
  STANDARD: 'standard-tier',
} as const;

/** A Code Assist user tier (`GeminiUserTier`). */
export const GeminiUserTier = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  userDefinedCloudaicompanionProject: z.boolean().nullish(),
  isDefault: z.boolean().optional(),
  hasAcceptedTos: z.boolean().optional(),
  hasOnboardedPreviously: z.boolean().optional(),
  availableCredits: z
    .array(z.looseObject({ creditType: z.string(), creditAmount: z.string() }))
    .optional(),
});
/** See {@link GeminiUserTier}. */
export type GeminiUserTier = z.infer<typeof GeminiUserTier>;

/** Why the account cannot use a tier (`IneligibleTier`). */
export const IneligibleTier = z.looseObject({
  reasonCode: z.string().optional(),
  reasonMessage: z.string().optional(),
  tierId: z.string().optional(),
  tierName: z.string().optional(),
  validationErrorMessage: z.string().optional(),
  validationUrl: z.string().optional(),
  validationUrlLinkText: z.string().optional(),
  validationLearnMoreUrl: z.string().optional(),
  validationLearnMoreLinkText: z.string().optional(),
});
/** See {@link IneligibleTier}. */
export type IneligibleTier = z.infer<typeof IneligibleTier>;

/** The answer of `:loadCodeAssist`. */
export const LoadCodeAssistResponse = z.looseObject({
  currentTier: GeminiUserTier.nullish(),
  allowedTiers: z.array(GeminiUserTier).nullish(),
  ineligibleTiers: z.array(IneligibleTier).nullish(),
  cloudaicompanionProject: z.string().nullish(),
  paidTier: GeminiUserTier.nullish(),
});
/** See {@link LoadCodeAssistResponse}. */
export type LoadCodeAssistResponse = z.infer<typeof LoadCodeAssistResponse>;

/** The long-running operation returned by `:onboardUser` and `GET /<operation name>`. */
export const LongRunningOperationResponse = z.looseObject({
  name: z.string().optional(),
  done: z.boolean().optional(),
  response: z
    .looseObject({
      cloudaicompanionProject: z
        .looseObject({ id: z.string().optional(), name: z.string().optional() })
        .optional(),
    })
    .optional(),
});
/** See {@link LongRunningOperationResponse}. */
export type LongRunningOperationResponse = z.infer<typeof LongRunningOperationResponse>;

/** gemini-cli's client metadata for setup calls. */
export interface ClientMetadata {
  ideType: 'IDE_UNSPECIFIED';
  platform: 'PLATFORM_UNSPECIFIED';
  pluginType: 'GEMINI';
  duetProject?: string;
}

/** What Code Assist setup found out about the signed-in user (gemini-cli's `UserData`). */
export interface CodeAssistUser {
  /** The Google Cloud project requests are billed to (`project` of every request). */
  projectId: string;
  /** The tier id (`free-tier`, `standard-tier`, …; the paid tier's id when there is one). */
  userTier: string;
  /** The tier's display name, when the server sent one. */
  userTierName: string | undefined;
  /** The paid tier (e.g. Google One AI), when there is one. */
  paidTier: GeminiUserTier | undefined;
  /** Whether the account had been onboarded before. */
  hasOnboardedPreviously: boolean;
}
