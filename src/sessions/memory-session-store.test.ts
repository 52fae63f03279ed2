import { MemorySessionStore } from './memory-session-store.js';
import { describeSessionStoreConformance } from './store-conformance.js';

describeSessionStoreConformance('memory', () => new MemorySessionStore());
