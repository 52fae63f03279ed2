/**
 * `gemini-agent-sdk/testing`: test doubles for code built on the SDK — `ScriptedModel` (an in-memory
 * ContentGenerator with scripted turns) and `FakeGeminiServer` (a loopback server speaking the Gemini REST
 * API, for end-to-end tests with the real client) — and helpers. It never imports vitest: the vitest suites
 * (`describeSessionStoreConformance`, which every `SessionStore` must pass) are on `gemini-agent-sdk/testing/vitest`.
 */
export { ScriptedModel, textTurn, callTurn, modelTurn } from './scripted-model.js';
export type { ScriptedTurn, ScriptedRequest, ScriptedModelOptions } from './scripted-model.js';
export { FakeGeminiServer } from './fake-gemini-server.js';
export type {
  FakeGeminiServerOptions,
  FakeGeminiReply,
  FakeGeminiRequest,
  FakeGeminiTurn,
} from './fake-gemini-server.js';
export { googleErrorBody } from './fake-gemini-script.js';
export { FakeCodeAssistServer } from './fake-code-assist-server.js';
export type {
  FakeCodeAssistServerOptions,
  FakeCodeAssistRequest,
  FakeCodeAssistTurn,
} from './fake-code-assist-server.js';
export { FakeGoogleAuthServer } from './fake-google-auth-server.js';
export { FakeOpenAIServer } from './fake-openai-server.js';
export type {
  FakeOpenAIServerOptions,
  FakeOpenAIRequest,
  FakeOpenAITurn,
} from './fake-openai-server.js';
export type {
  FakeGoogleAuthServerOptions,
  FakeGoogleAuthRequest,
} from './fake-google-auth-server.js';
export { sampleSessionEntries } from './sample-session-entries.js';
export { createTestSessionContext } from './test-session-context.js';
export type { TestSessionContextOptions } from './test-session-context.js';
