import { MemorySessionStore } from './memory-session-store.js';
import { describeSessionStoreConformance } from '../testing/vitest/store-conformance.js';

describeSessionStoreConformance('memory', () => new MemorySessionStore());
