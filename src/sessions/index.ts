/**
 * `gemini-agent-sdk/sessions`: session persistence without an agent — list, fork, delete and load the sessions of
 * a store (`createFilePersistence`, `createMemoryPersistence`, `createStorePersistence({ store })`) and
 * `recordsToHistory`, which turns stored gemini-cli messages into the `Content[]` a resume starts from.
 *
 * Every export is listed here by name; `src/index.test.ts` pins the list.
 */
export {
  createFilePersistence,
  createMemoryPersistence,
  createStorePersistence,
} from './session-persistence.js';
export type {
  StoreSessionPersistence,
  StorePersistenceOptions,
  FilePersistenceOptions,
  MemoryPersistenceOptions,
  SessionQueryOptions,
} from './session-persistence.js';
export { recordsToHistory } from './history-from-records.js';
