// Recently opened projects and recently used models, kept in the user's config folder (not in any project).
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { RecentProject } from '../../../shared/api/types';
import type { ModelsState } from '../../../shared/api/model-types';
import { writeJsonAtomic } from '../store/atomic';

const MAX_RECENT = 12;

export class RecentProjects {
  private readonly file: string;

  constructor(configDir: string) {
    this.file = join(configDir, 'recent-projects.json');
  }

  list(): RecentProject[] {
    if (!existsSync(this.file)) return [];
    try {
      const raw = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      if (!Array.isArray(raw)) return [];
      return raw
        .filter((r: { dir?: unknown; openedAt?: unknown } | null): r is RecentProject => typeof r?.dir === 'string' && typeof r?.openedAt === 'string')
        .filter((r) => existsSync(join(r.dir, 'project.json')));
    } catch {
      return []; // a damaged list is not worth an error dialog; it is rebuilt on the next open
    }
  }

  touch(dir: string, name = basename(dir)): void {
    const rest = this.list().filter((r) => r.dir !== dir);
    writeJsonAtomic(this.file, [{ dir, name, openedAt: new Date().toISOString() }, ...rest].slice(0, MAX_RECENT));
  }
}

const MAX_RECENT_MODELS = 10;

/** Model files used lately (inspected, or a job started from them), newest first; files gone are left out. */
export class RecentModels {
  private readonly file: string;

  constructor(configDir: string) {
    this.file = join(configDir, 'recent-models.json');
  }

  list(): ModelsState['recent'] {
    if (!existsSync(this.file)) return [];
    try {
      const list = JSON.parse(readFileSync(this.file, 'utf8')) as ModelsState['recent'];
      return Array.isArray(list) ? list.filter((m) => typeof m?.path === 'string' && existsSync(m.path)) : [];
    } catch {
      return []; // as with the projects: rebuilt on the next use
    }
  }

  touch(path: string, name: string): void {
    const rest = this.list().filter((m) => m.path !== path);
    writeJsonAtomic(this.file, [{ path, name, usedAt: new Date().toISOString() }, ...rest].slice(0, MAX_RECENT_MODELS));
  }
}
