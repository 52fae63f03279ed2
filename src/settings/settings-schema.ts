import { z } from 'zod';

/**
 * The schema of gemini-cli's `settings.json` (0.61), for the keys the SDK reads (see docs/configuration.md for
 * each key's effect). Every object is loose: keys gemini-cli knows that we do not read pass through untouched,
 * and the loader warns about keys nobody knows. As in gemini-cli, `"true"`/`"false"` strings count as booleans
 * and numeric strings as numbers (values often come from `$VAR` expansion).
 */

const bool = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const lower = value.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : value;
}, z.boolean());

const num = z.preprocess((value) => {
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) {
    return Number(value);
  }
  return value;
}, z.number());

const str = z.string();
const strings = z.array(z.string());
const stringOrStrings = z.union([z.string(), z.array(z.string())]);
const openObject = z.record(z.string(), z.unknown());

/** One MCP server of `mcpServers` (read by the MCP client). */
export const McpServerSettings = z.looseObject({
  command: str.optional(),
  args: strings.optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: str.optional(),
  url: str.optional(),
  httpUrl: str.optional(),
  headers: z.record(z.string(), z.string()).optional(),
  tcp: str.optional(),
  type: z.enum(['stdio', 'sse', 'http']).optional(),
  timeout: num.optional(),
  trust: bool.optional(),
  description: str.optional(),
  includeTools: strings.optional(),
  excludeTools: strings.optional(),
  extension: openObject.optional(),
  oauth: openObject.optional(),
  authProviderType: str.optional(),
  targetAudience: str.optional(),
  targetServiceAccount: str.optional(),
});
/** One MCP server of `mcpServers`. */
export type McpServerSettings = z.infer<typeof McpServerSettings>;

/** One command hook inside a hook definition. */
export const HookCommandSettings = z.looseObject({
  type: str.optional(),
  command: str.optional(),
  name: str.optional(),
  description: str.optional(),
  timeout: num.optional(),
});

/** One entry of a `hooks.<Event>` list: a matcher and the hooks it runs (read by the hooks feature). */
export const HookDefinitionSettings = z.looseObject({
  matcher: str.optional(),
  sequential: bool.optional(),
  hooks: z.array(HookCommandSettings).optional(),
});
/** One entry of a `hooks.<Event>` list. */
export type HookDefinitionSettings = z.infer<typeof HookDefinitionSettings>;

/** `telemetry`: a switch, or the exporter settings. */
export const TelemetrySettings = z.union([
  bool,
  z.looseObject({
    enabled: bool.optional(),
    target: str.optional(),
    otlpEndpoint: str.optional(),
    otlpProtocol: z.enum(['grpc', 'http']).optional(),
    traces: bool.optional(),
    logPrompts: bool.optional(),
    outfile: str.optional(),
    useCollector: bool.optional(),
    useCliAuth: bool.optional(),
  }),
]);

/** gemini-cli's `settings.json`, as far as the SDK reads it. */
export const Settings = z.looseObject({
  $schema: str.optional(),
  mcpServers: z.record(z.string(), McpServerSettings).optional(),
  policyPaths: strings.optional(),
  adminPolicyPaths: strings.optional(),
  general: z
    .looseObject({
      defaultApprovalMode: z.enum(['default', 'auto_edit', 'plan']).optional(),
      checkpointing: z.looseObject({ enabled: bool.optional() }).optional(),
      plan: z
        .looseObject({
          enabled: bool.optional(),
          directory: str.optional(),
          modelRouting: bool.optional(),
        })
        .optional(),
      retryFetchErrors: bool.optional(),
      maxAttempts: num.optional(),
      sessionRetention: z
        .looseObject({
          enabled: bool.optional(),
          maxAge: str.optional(),
          maxCount: num.optional(),
          minRetention: str.optional(),
        })
        .optional(),
    })
    .optional(),
  output: z.looseObject({ format: z.enum(['text', 'json']).optional() }).optional(),
  telemetry: TelemetrySettings.optional(),
  model: z
    .looseObject({
      name: str.optional(),
      maxSessionTurns: num.optional(),
      summarizeToolOutput: openObject.optional(),
      compressionThreshold: num.optional(),
      disableLoopDetection: bool.optional(),
      skipNextSpeakerCheck: bool.optional(),
    })
    .optional(),
  modelConfigs: z
    .looseObject({
      aliases: openObject.optional(),
      customAliases: openObject.optional(),
      customOverrides: z.array(z.unknown()).optional(),
      overrides: z.array(z.unknown()).optional(),
    })
    .optional(),
  context: z
    .looseObject({
      fileName: stringOrStrings.optional(),
      importFormat: z.enum(['tree', 'flat']).optional(),
      includeDirectoryTree: bool.optional(),
      discoveryMaxDirs: num.optional(),
      memoryBoundaryMarkers: strings.optional(),
      includeDirectories: strings.optional(),
      loadMemoryFromIncludeDirectories: bool.optional(),
      fileFiltering: z
        .looseObject({
          respectGitIgnore: bool.optional(),
          respectGeminiIgnore: bool.optional(),
          enableRecursiveFileSearch: bool.optional(),
          enableFuzzySearch: bool.optional(),
          customIgnoreFilePaths: strings.optional(),
        })
        .optional(),
    })
    .optional(),
  tools: z
    .looseObject({
      sandbox: z.union([bool, str, openObject]).optional(),
      core: strings.optional(),
      allowed: strings.optional(),
      confirmationRequired: strings.optional(),
      exclude: strings.optional(),
      discoveryCommand: str.optional(),
      callCommand: str.optional(),
      truncateToolOutputThreshold: num.optional(),
    })
    .optional(),
  mcp: z
    .looseObject({
      serverCommand: str.optional(),
      allowed: strings.optional(),
      excluded: strings.optional(),
    })
    .optional(),
  security: z
    .looseObject({
      disableYoloMode: bool.optional(),
      disableAlwaysAllow: bool.optional(),
      folderTrust: z.looseObject({ enabled: bool.optional() }).optional(),
      auth: z
        .looseObject({
          selectedType: str.optional(),
          enforcedType: str.optional(),
          useExternal: bool.optional(),
        })
        .optional(),
    })
    .optional(),
  skills: z.looseObject({ enabled: bool.optional(), disabled: strings.optional() }).optional(),
  hooksConfig: z
    .looseObject({
      enabled: bool.optional(),
      disabled: strings.optional(),
      notifications: bool.optional(),
    })
    .optional(),
  hooks: z.record(z.string(), z.array(HookDefinitionSettings)).optional(),
  extensions: z.looseObject({ disabled: strings.optional() }).optional(),
  admin: z
    .looseObject({
      secureModeEnabled: bool.optional(),
      extensions: z.looseObject({ enabled: bool.optional() }).optional(),
      mcp: z.looseObject({ enabled: bool.optional() }).optional(),
      skills: z.looseObject({ enabled: bool.optional() }).optional(),
    })
    .optional(),
});
/** gemini-cli's `settings.json`, as far as the SDK reads it (other known keys pass through as `unknown`). */
export type Settings = z.infer<typeof Settings>;

/**
 * gemini-cli's schema defaults for the keys the SDK reads (0.61). They are the first merge layer, as in
 * gemini-cli, so union/concat keys extend them and `merged` always holds these values.
 */
export const DEFAULT_SETTINGS: Settings = {
  general: {
    defaultApprovalMode: 'default',
    checkpointing: { enabled: false },
    plan: { enabled: true, modelRouting: true },
    retryFetchErrors: true,
    maxAttempts: 10,
    sessionRetention: { enabled: true, maxAge: '30d', minRetention: '1d' },
  },
  output: { format: 'text' },
  model: {
    maxSessionTurns: -1,
    compressionThreshold: 0.5,
    disableLoopDetection: false,
    skipNextSpeakerCheck: true,
  },
  context: {
    includeDirectoryTree: true,
    discoveryMaxDirs: 200,
    memoryBoundaryMarkers: ['.git'],
    includeDirectories: [],
    loadMemoryFromIncludeDirectories: false,
    fileFiltering: {
      respectGitIgnore: true,
      respectGeminiIgnore: true,
      enableRecursiveFileSearch: true,
      enableFuzzySearch: true,
      customIgnoreFilePaths: [],
    },
  },
  tools: { truncateToolOutputThreshold: 40000 },
  security: { disableYoloMode: false, disableAlwaysAllow: false, folderTrust: { enabled: true } },
  skills: { enabled: true, disabled: [] },
  hooksConfig: { enabled: true, disabled: [], notifications: true },
  hooks: {},
  mcpServers: {},
  policyPaths: [],
  adminPolicyPaths: [],
  extensions: { disabled: [] },
  admin: {
    secureModeEnabled: false,
    extensions: { enabled: true },
    mcp: { enabled: true },
    skills: { enabled: true },
  },
};
