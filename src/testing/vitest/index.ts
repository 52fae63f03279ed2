/**
 * `gemini-agent-sdk/testing/vitest`: the test kit's vitest suites — `describeSessionStoreConformance`, the behaviour
 * every `SessionStore` must have. It imports vitest; everything else of the kit is on `gemini-agent-sdk/testing`,
 * which does not.
 */
export { describeSessionStoreConformance } from './store-conformance.js';
export type { SessionStoreConformanceOptions } from './store-conformance.js';
