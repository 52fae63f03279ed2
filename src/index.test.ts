import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as sdk from './index.js';
import * as model from './model/index.js';
import * as policy from './policy/index.js';
import * as sessions from './sessions/index.js';
import * as testingVitest from './testing/vitest/index.js';

/** Every source file `entry` reaches through static (non-type) imports, and the packages those files import. */
function staticImportGraph(entry: string): Set<string> & { packages: Set<string> } {
  const seen = Object.assign(new Set<string>(), { packages: new Set<string>() });
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(
      /^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms,
    )) {
      const specifier = match[1] as string;
      if (!specifier.startsWith('.')) seen.packages.add(specifier);
      else visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  };
  visit(entry);
  return seen;
}

describe('public API', () => {
  it('exports exactly this list of runtime values (add to it on purpose, never by accident)', () => {
    expect(Object.keys(sdk).sort()).toEqual([
      'AbortError',
      'AgentLoadError',
      'AgentMcp',
      'AuthType',
      'AuthenticationError',
      'CompressionStatus',
      'ConfigurationError',
      'DEFAULT_MODEL',
      'DEFAULT_OTLP_ENDPOINT',
      'DEFAULT_PRICES',
      'DEFAULT_SETTINGS',
      'EXTENSION_INSTALL_WARNING',
      'EXTENSION_TEMPLATES',
      'ExtensionError',
      'ExtensionManager',
      'FileSessionStore',
      'GeminiAgentError',
      'GeminiCliAcpServer',
      'GeminiCliAgent',
      'GeminiCliSession',
      'GeminiEventType',
      'HOOK_EVENT_NAMES',
      'INVOKE_AGENT_TOOL_NAME',
      'InternalError',
      'InvalidStreamError',
      'LimitExceededError',
      'McpServerError',
      'MemorySessionStore',
      'MissingCredentialsError',
      'MissingDependencyError',
      'ModelApiError',
      'ModelBehaviorError',
      'ModelCapabilityError',
      'ModelVisibleError',
      'PRICES_DATE',
      'PolicyDeniedError',
      'PolicyRuleError',
      'ReplayError',
      'ResponseTooLargeError',
      'SETTINGS_SOURCES',
      'SdkTool',
      'SdkToolInvocation',
      'SessionBusyError',
      'SessionError',
      'SessionExistsError',
      'SessionLockedError',
      'SessionNotFoundError',
      'Settings',
      'SettingsFileError',
      'SkillManager',
      'Subagent',
      'TODO_STATUSES',
      'ToolExecutionError',
      'callCost',
      'convertClaudeHooks',
      'createExtensionFolder',
      'createSessionViewerHandler',
      'createStderrLogger',
      'createWorkspace',
      'extension',
      'extensionDir',
      'getAuthTypeFromEnv',
      'hook',
      'loadAgentsFromDirectory',
      'loadSettings',
      'loginWithGoogle',
      'logoutFromGoogle',
      'migrateClaudeHooks',
      'openAICompatible',
      'parseAgentMarkdown',
      'resolveFolderTrust',
      'resolveTelemetrySettings',
      'selectAuthType',
      'silentLogger',
      'skillDir',
      'skillRoot',
      'startSessionViewer',
      'startTelemetry',
      'subagent',
      'tool',
      'validateExtensionFolder',
      'z',
    ]);
  });

  it('re-exports zod v4 as z', () => {
    expect(typeof sdk.z.toJSONSchema).toBe('function');
  });

  it('the root entry never loads vitest: the conformance suite is reachable from the testing subpath only', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const root = staticImportGraph(resolve(here, 'index.ts'));
    const conformance = resolve(here, 'testing', 'vitest', 'store-conformance.ts');
    expect(root.has(resolve(here, 'sessions', 'session-persistence.ts'))).toBe(true);
    expect(root.has(conformance)).toBe(false);
    // The optional peer dependencies load when their feature is first used (the MCP SDK when an agent's first
    // MCP server starts, the ACP SDK on GeminiCliAcpServer.connect(), openai on the first OpenAI-compatible
    // call), never with the root entry: an install without them imports the package.
    expect(
      [...root.packages].filter((p) =>
        /^(@modelcontextprotocol\/|@agentclientprotocol\/|openai($|\/))/.test(p),
      ),
    ).toEqual([]);
    expect(staticImportGraph(resolve(here, 'testing', 'vitest', 'index.ts')).has(conformance)).toBe(
      true,
    );
  });

  it('gemini-agent-sdk/testing imports no vitest (its vitest suites are on gemini-agent-sdk/testing/vitest)', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const kit = staticImportGraph(resolve(here, 'testing', 'index.ts'));
    expect(kit.size).toBeGreaterThan(3);
    expect([...kit.packages].filter((p) => p === 'vitest' || p.startsWith('vitest/'))).toEqual([]);
    expect(staticImportGraph(resolve(here, 'testing', 'vitest', 'index.ts')).packages).toContain(
      'vitest',
    );
  });

  it('pins the runtime exports of the subpaths too (testing: scripted-model.test.ts)', () => {
    expect(Object.keys(policy).sort()).toEqual([
      'PolicyEngine',
      'PolicyRuleError',
      'argsHash',
      'createPolicyEngine',
      'loadPolicyFiles',
      'parsePolicyToml',
    ]);
    expect(Object.keys(sessions).sort()).toEqual([
      'createFilePersistence',
      'createMemoryPersistence',
      'createStorePersistence',
      'recordsToHistory',
    ]);
    expect(Object.keys(model).sort()).toEqual([
      'DEFAULT_MODEL',
      'createContentGenerator',
      'resolveModel',
    ]);
    expect(Object.keys(testingVitest)).toEqual(['describeSessionStoreConformance']);
  });
});
