import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { readdir, readFile, writeFile } from './descriptor-retry.js';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { SessionError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { withMkdirLock } from './mkdir-lock.js';
import { normalizeProjectPath, slugifyProjectName } from './session-paths.js';

/** `~/.gemini/projects.json`: absolute project path → slug. */
export const ProjectRegistryData = z.object({ projects: z.record(z.string(), z.string()) });
/** `~/.gemini/projects.json`: absolute project path → slug. */
export type ProjectRegistryData = z.infer<typeof ProjectRegistryData>;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Name of the ownership marker written in each slug folder (its content is the project's absolute path). */
export const PROJECT_ROOT_MARKER = '.project_root';

/**
 * gemini-cli's `ProjectRegistry`: maps a project root to a short slug (`~/.gemini/tmp/<slug>`), registered in
 * `projects.json` under a proper-lockfile-compatible lock and claimed with `.project_root` marker files in
 * `tmp/<slug>/` and `history/<slug>/`. Collisions get `-1`, `-2`, … suffixes.
 */
export class ProjectRegistry {
  /** Path of `projects.json`. */
  readonly registryPath: string;
  private readonly baseDirs: string[];
  private readonly logger: Logger;

  constructor(globalDir: string, logger: Logger = silentLogger) {
    this.registryPath = join(globalDir, 'projects.json');
    this.baseDirs = [join(globalDir, 'tmp'), join(globalDir, 'history')];
    this.logger = logger;
  }

  /** Reads the slug of a project without registering anything; undefined when the project is unknown. */
  async findShortId(projectRoot: string): Promise<string | undefined> {
    const normalized = normalizeProjectPath(projectRoot);
    const data = await this.loadData();
    const known = data.projects[normalized];
    if (known !== undefined && (await this.verifyOwnership(known, normalized))) return known;
    return this.findSlugByMarker(normalized);
  }

  /**
   * Returns the project's slug, registering it (and writing its ownership markers) when needed. A project that
   * `projects.json` already maps, with both markers naming it, is read without taking the lock: there is nothing
   * to write (the locked path would find the same slug and leave every file as it is), and a writer replaces
   * `projects.json` by a rename, so the read sees a whole file.
   */
  async getShortId(projectRoot: string, signal?: AbortSignal): Promise<string> {
    const normalized = normalizeProjectPath(projectRoot);
    const registered = await this.registeredSlug(normalized);
    if (registered !== undefined) return registered;
    await mkdir(dirname(this.registryPath), { recursive: true });
    if (!existsSync(this.registryPath)) {
      await writeFile(this.registryPath, JSON.stringify({ projects: {} }, null, 2), {
        flag: 'wx',
      }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
    }
    return withMkdirLock(
      this.registryPath,
      async () => {
        const data = await this.loadData();
        const known = data.projects[normalized];
        if (known !== undefined) {
          if (await this.verifyOwnership(known, normalized)) {
            await this.ensureMarkers(known, normalized);
            return known;
          }
          delete data.projects[normalized];
        }
        const slug =
          (await this.findSlugByMarker(normalized)) ?? (await this.claimNewSlug(normalized, data));
        data.projects[normalized] = slug;
        await this.save(data);
        return slug;
      },
      { signal },
    );
  }

  /**
   * The slug `projects.json` maps the project to when the file is a valid registry (what {@link loadData} would
   * accept: every value a string) and both ownership markers of the slug name the project; else undefined.
   */
  private async registeredSlug(normalized: string): Promise<string | undefined> {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(this.registryPath, 'utf8'));
    } catch {
      return undefined;
    }
    if (!isPlainRecord(json) || !isPlainRecord(json['projects'])) return undefined;
    const projects = json['projects'];
    for (const key of Object.keys(projects)) {
      if (typeof projects[key] !== 'string') return undefined;
    }
    if (!Object.prototype.hasOwnProperty.call(projects, normalized)) return undefined;
    const slug = projects[normalized] as string;
    for (const baseDir of this.baseDirs) {
      if ((await this.readMarker(slug, baseDir)) !== normalized) return undefined;
    }
    return slug;
  }

  private async loadData(): Promise<ProjectRegistryData> {
    let text: string;
    try {
      text = await readFile(this.registryPath, 'utf8');
    } catch {
      return { projects: {} };
    }
    try {
      const parsed = ProjectRegistryData.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch {
      // fall through: a corrupt registry starts fresh, as in gemini-cli
    }
    this.logger.warn('projects.json is not valid; starting a fresh project registry', {
      path: this.registryPath,
    });
    return { projects: {} };
  }

  private async save(data: ProjectRegistryData): Promise<void> {
    const tmp = `${this.registryPath}.tmp`;
    await writeFile(tmp, JSON.stringify(data, null, 2), 'utf8');
    await rename(tmp, this.registryPath);
  }

  private async readMarker(slug: string, baseDir: string): Promise<string | undefined | null> {
    try {
      return normalizeProjectPath(
        (await readFile(join(baseDir, slug, PROJECT_ROOT_MARKER), 'utf8')).trim(),
      );
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null;
    }
  }

  /** True unless a marker for `slug` names another project (or cannot be read). */
  private async verifyOwnership(slug: string, normalized: string): Promise<boolean> {
    for (const baseDir of this.baseDirs) {
      const owner = await this.readMarker(slug, baseDir);
      if (owner === null || (owner !== undefined && owner !== normalized)) return false;
    }
    return true;
  }

  private async findSlugByMarker(normalized: string): Promise<string | undefined> {
    for (const baseDir of this.baseDirs) {
      let entries: string[];
      try {
        entries = await readdir(baseDir);
      } catch {
        continue;
      }
      for (const candidate of entries) {
        if ((await this.readMarker(candidate, baseDir)) === normalized) return candidate;
      }
    }
    return undefined;
  }

  private async claimNewSlug(normalized: string, data: ProjectRegistryData): Promise<string> {
    const base = slugifyProjectName(normalized);
    const taken = new Set(Object.values(data.projects));
    for (let counter = 0; ; counter++) {
      const candidate = counter === 0 ? base : `${base}-${counter}`;
      if (taken.has(candidate)) continue;
      if (!(await this.verifyOwnership(candidate, normalized))) continue;
      try {
        await this.ensureMarkers(candidate, normalized);
        return candidate;
      } catch (err) {
        this.logger.debug('project slug taken concurrently; trying the next one', {
          candidate,
          error: String(err),
        });
      }
    }
  }

  private async ensureMarkers(slug: string, normalized: string): Promise<void> {
    for (const baseDir of this.baseDirs) {
      const dir = join(baseDir, slug);
      await mkdir(dir, { recursive: true });
      const owner = await this.readMarker(slug, baseDir);
      if (owner === normalized) continue;
      if (owner !== undefined) {
        throw new SessionError(`Project slug ${slug} is already owned by ${String(owner)}`, {
          code: 'PROJECT_SLUG_TAKEN',
        });
      }
      await writeFile(join(dir, PROJECT_ROOT_MARKER), normalized, { encoding: 'utf8', flag: 'wx' });
    }
  }
}
