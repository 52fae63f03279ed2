import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore } from './file-session-store.js';
import { describeSessionStoreConformance } from '../testing/vitest/store-conformance.js';

const homes = new Map<FileSessionStore, string>();

describeSessionStoreConformance(
  'file (gemini-cli JSONL)',
  async () => {
    const home = await mkdtemp(join(tmpdir(), 'gas-conf-'));
    const store = new FileSessionStore({
      home,
      projectRoot: join(home, 'my-project'),
      sync: 'none',
    });
    homes.set(store, home);
    return store;
  },
  {
    cleanup: async (store) => {
      const home = homes.get(store as FileSessionStore);
      if (home !== undefined) await rm(home, { recursive: true, force: true });
    },
  },
);
