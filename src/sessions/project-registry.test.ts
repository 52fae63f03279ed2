import { mkdir, mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
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

  it('reads a registered project whose markers name it without the lock, and writes nothing', async () => {
    const registry = new ProjectRegistry(gemini);
    expect(await registry.getShortId('/p/delta')).toBe('delta');
    const before = await readFile(join(gemini, 'projects.json'), 'utf8');
    const lockDir = join(gemini, 'projects.json.lock');
    await mkdir(lockDir);
    // Held by another process: the registered project does not wait for it.
    expect(await new ProjectRegistry(gemini).getShortId('/p/delta')).toBe('delta');
    expect(await readFile(join(gemini, 'projects.json'), 'utf8')).toBe(before);
    await rm(lockDir, { recursive: true });
  });

  it('takes the lock when a marker is missing (and writes it back) or the registry is not valid', async () => {
    const registry = new ProjectRegistry(gemini);
    expect(await registry.getShortId('/p/eps')).toBe('eps');
    const marker = join(gemini, 'history', 'eps', '.project_root');
    await rm(marker);
    const lockDir = join(gemini, 'projects.json.lock');
    await mkdir(lockDir);
    let done = false;
    const again = new ProjectRegistry(gemini).getShortId('/p/eps').then((slug) => {
      done = true;
      return slug;
    });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(done).toBe(false);
    await rm(lockDir, { recursive: true });
    expect(await again).toBe('eps');
    expect(await readFile(marker, 'utf8')).toBe('/p/eps');
    // A value that is not a string makes the registry invalid: the locked path starts it fresh (as before).
    await writeFile(
      join(gemini, 'projects.json'),
      JSON.stringify({ projects: { '/p/eps': 'eps', '/p/other': 7 } }),
    );
    expect(await new ProjectRegistry(gemini).getShortId('/p/eps')).toBe('eps');
    const rewritten = JSON.parse(await readFile(join(gemini, 'projects.json'), 'utf8')) as {
      projects: Record<string, string>;
    };
    expect(rewritten.projects).toEqual({ '/p/eps': 'eps' });
  });
});
