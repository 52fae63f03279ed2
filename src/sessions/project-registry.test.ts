import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectRegistry } from './project-registry.js';

describe('ProjectRegistry lock (proper-lockfile compatible)', () => {
  let gemini: string;
  beforeEach(async () => {
    gemini = join(await mkdtemp(join(tmpdir(), 'gas-reg-')), '.gemini');
    await mkdir(gemini, { recursive: true });
    await writeFile(join(gemini, 'projects.json'), '{"projects":{}}');
  });
  afterEach(async () => {
    await rm(join(gemini, '..'), { recursive: true, force: true });
  });

  it('waits while another process holds projects.json.lock, then registers', async () => {
    const lockDir = join(gemini, 'projects.json.lock');
    await mkdir(lockDir);
    const events: string[] = [];
    const registering = new ProjectRegistry(gemini).getShortId('/p/alpha').then((slug) => {
      events.push(`registered ${slug}`);
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    events.push('lock released');
    await rm(lockDir, { recursive: true });
    await registering;
    expect(events).toEqual(['lock released', 'registered alpha']);
    expect(await readdir(gemini)).not.toContain('projects.json.lock');
  });

  it('removes a stale lock left by a crashed process', async () => {
    const lockDir = join(gemini, 'projects.json.lock');
    await mkdir(lockDir);
    const old = new Date(Date.now() - 60_000);
    await utimes(lockDir, old, old);
    expect(await new ProjectRegistry(gemini).getShortId('/p/beta')).toBe('beta');
    expect(await new ProjectRegistry(gemini).findShortId('/p/beta')).toBe('beta');
    expect(await new ProjectRegistry(gemini).findShortId('/p/unknown')).toBeUndefined();
  });

  it('starts a fresh registry when projects.json is corrupt', async () => {
    await writeFile(join(gemini, 'projects.json'), '{"projects": [oops');
    expect(await new ProjectRegistry(gemini).getShortId('/p/Gamma Ray!')).toBe('gamma-ray');
  });
});
