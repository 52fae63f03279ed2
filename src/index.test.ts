import { describe, expect, it } from 'vitest';
import * as sdk from './index.js';

describe('public API', () => {
  it('exports exactly this list of runtime values (add to it on purpose, never by accident)', () => {
    expect(Object.keys(sdk).sort()).toEqual([
      'AbortError',
      'ConfigurationError',
      'GeminiAgentError',
      'GeminiCliAgent',
      'GeminiCliSession',
      'GeminiEventType',
      'InternalError',
      'LimitExceededError',
      'MemorySessionPersistence',
      'MissingCredentialsError',
      'ModelApiError',
      'ModelBehaviorError',
      'ModelVisibleError',
      'PolicyDeniedError',
      'ReplayError',
      'SessionBusyError',
      'SessionError',
      'SessionLockedError',
      'SessionNotFoundError',
      'ToolExecutionError',
      'createStderrLogger',
      'silentLogger',
      'tool',
      'z',
    ]);
  });

  it('re-exports zod v4 as z', () => {
    expect(typeof sdk.z.toJSONSchema).toBe('function');
  });
});
