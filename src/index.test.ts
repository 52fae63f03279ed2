import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as sdk from './index.js';

/** Every source file `entry` reaches through static (non-type) imports. */
function staticImportGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(
      /^(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gms,
    )) {
      visit(resolve(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')));
    }
  };
  visit(entry);
  return seen;
}

describe('public API', () => {
  it('exports exactly this list of runtime values (add to it on purpose, never by accident)', () => {
    expect(Object.keys(sdk).sort()).toEqual([
      'AbortError',
      'AuthType',
      'AuthenticationError',
      'ConfigurationError',
      'DEFAULT_MODEL',
      'DEFAULT_SETTINGS',
      'FileSessionStore',
      'GeminiAgentError',
      'GeminiCliAcpServer',
      'GeminiCliAgent',
      'GeminiCliSession',
      'GeminiEventType',
      'InternalError',
      'InvalidStreamError',
      'LimitExceededError',
      'MemorySessionStore',
      'MissingCredentialsError',
      'ModelApiError',
      'ModelBehaviorError',
      'ModelCapabilityError',
      'ModelVisibleError',
      'PolicyDeniedError',
      'PolicyEngine',
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
      'SessionRules',
      'Settings',
      'SettingsFileError',
      'SkillManager',
      'ToolExecutionError',
      'argsHash',
      'createCommandCheck',
      'createContentGenerator',
      'createFilePersistence',
      'createMemoryPersistence',
      'createPolicyEngine',
      'createPolicyGate',
      'createStderrLogger',
      'createStorePersistence',
      'getAuthTypeFromEnv',
      'loadPolicyFiles',
      'loadSettings',
      'loginWithGoogle',
      'logoutFromGoogle',
      'parsePolicyToml',
      'recordsToHistory',
      'resolveFolderTrust',
      'resolveModel',
      'selectAuthType',
      'silentLogger',
      'skillDir',
      'skillRoot',
      'stableStringify',
      'tool',
      'z',
    ]);
  });

  it('re-exports zod v4 as z', () => {
    expect(typeof sdk.z.toJSONSchema).toBe('function');
  });

  it('the root entry never loads vitest: the conformance suite is reachable from the testing subpath only', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const root = staticImportGraph(resolve(here, 'index.ts'));
    const conformance = resolve(here, 'sessions', 'store-conformance.ts');
    expect(root.has(resolve(here, 'sessions', 'session-persistence.ts'))).toBe(true);
    expect(root.has(conformance)).toBe(false);
    expect(staticImportGraph(resolve(here, 'testing', 'index.ts')).has(conformance)).toBe(true);
  });
});
