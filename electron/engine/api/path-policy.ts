// `lots ui --root DIR`: the one place that decides which file paths the API may use. Anyone with the web
// host's token reads and writes files as the host's user; with a root, every path field of every API input
// (found from the schemas: shared/api/path-fields.ts) must lie inside DIR once symbolic links are resolved,
// or the call is refused with OUTSIDE_ROOT. Besides DIR, the folders LOTS Studio itself fills are allowed
// (downloaded and generated models, the demo and sample projects it makes): their names are the engine's,
// not the caller's. Without a root nothing is checked or changed (the desktop app, `lots ui` as before).
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errorCode, ExpectedError } from '../../../shared/api/errors';
import { mapPathFields } from '../../../shared/api/path-fields';
import { apiInputSchemas, type ApiMethodName } from '../../../shared/api/schemas';

/** A folder besides the root that paths may lie in, and what it is (for messages). */
export interface AllowedFolder {
  dir: string;
  what: string;
}

const MAX_LINKS = 40;

export class PathPolicy {
  private constructor(
    /** The root's real path; null: unconfined. */
    readonly root: string | null,
    private readonly also: readonly AllowedFolder[],
  ) {}

  static unconfined(): PathPolicy {
    return new PathPolicy(null, []);
  }

  /** Confined to `root` (an existing folder) and the engine's own folders `also` (which need not exist yet). */
  static confinedTo(root: string, also: readonly AllowedFolder[] = []): PathPolicy {
    let real: string;
    try {
      real = realpathSync.native(resolve(root));
      if (!statSync(real).isDirectory()) throw new ExpectedError('INVALID_INPUT', `--root ${root} is not a folder: give the folder the Studio may use`);
    } catch (e) {
      if (e instanceof ExpectedError) throw e;
      throw new ExpectedError('INVALID_INPUT', `--root ${root} cannot be used (${errorCode(e) ?? (e as Error).message}): give an existing folder`);
    }
    return new PathPolicy(
      real,
      also.map((a) => ({ dir: realPathOf(resolve(a.dir)), what: a.what })),
    );
  }

  get confined(): boolean {
    return this.root !== null;
  }

  /**
   * The path to use for `path`, given as `field` (for the message): unconfined, `path` itself. Confined: its
   * real path (relative paths are taken from the root; `..` and symbolic links are resolved, for a path that
   * does not exist yet through its longest existing prefix), which must lie inside the root or one of the
   * engine's folders; anything else is OUTSIDE_ROOT.
   */
  resolve(path: string, field: string): string {
    if (this.root === null) return path;
    const asked = isAbsolute(path) ? resolve(path) : resolve(this.root, path);
    const real = realPathOf(asked);
    if (this.allowsReal(real)) return real;
    const through = real !== asked ? ` (it resolves to ${real}${hasLink(asked) ? ' through a symbolic link' : ''})` : '';
    throw new ExpectedError(
      'OUTSIDE_ROOT',
      `${field}: ${path}${through} is outside ${this.root}, the only folder this Studio may use (it was started with \`lots ui --root\`); pick a path inside ${this.root}`,
    );
  }

  /** Refuses `path` (OUTSIDE_ROOT) unless it may be used; for paths the engine found itself (a run's model file). */
  check(path: string, field: string): void {
    this.resolve(path, field);
  }

  /** Whether `path` may be used (to filter lists such as the recent projects). */
  allows(path: string): boolean {
    if (this.root === null) return true;
    try {
      return this.allowsReal(realPathOf(resolve(this.root, path)));
    } catch {
      return false;
    }
  }

  /** `input` (parsed by `method`'s schema) with each of its path fields resolved by `resolve`. */
  confineInput<T>(method: ApiMethodName, input: T): T {
    if (this.root === null) return input;
    return mapPathFields(apiInputSchemas[method], input, (path, field) => this.resolve(path, `${method}: ${field}`)) as T;
  }

  /** The root and the engine's folders, for a startup line or a message. */
  describe(): string {
    if (this.root === null) return "every path the host's user can reach";
    return this.also.length ? `${this.root} (and LOTS Studio's own ${this.also.map((a) => `${a.what} ${a.dir}`).join(', ')})` : this.root;
  }

  private allowsReal(real: string): boolean {
    return [this.root!, ...this.also.map((a) => a.dir)].some((dir) => inside(real, dir));
  }
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The real path of an absolute path that may not exist yet: the real path of its longest existing prefix
 * with the rest appended. A dangling symbolic link on the way is followed by hand (a write through it would
 * create its target), so it cannot point a new file outside the root.
 */
export function realPathOf(absolute: string): string {
  let head = absolute;
  const rest: string[] = [];
  for (let links = 0; ;) {
    try {
      return rest.length ? join(realpathSync.native(head), ...[...rest].reverse()) : realpathSync.native(head);
    } catch (e) {
      const code = errorCode(e);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
    }
    let link: string | undefined;
    try {
      if (lstatSync(head).isSymbolicLink()) link = readlinkSync(head);
    } catch {
      /* not there at all: its parent is tried */
    }
    if (link !== undefined) {
      if (++links > MAX_LINKS) throw new ExpectedError('INVALID_INPUT', `${absolute}: too many symbolic links`);
      // (Its folder exists — lstat found the link — so its real path is known; the target is read from there.)
      head = resolve(realpathSync.native(dirname(head)), link);
      continue;
    }
    const parent = dirname(head);
    if (parent === head) return join(head, ...[...rest].reverse());
    rest.push(basename(head));
    head = parent;
  }
}

/** Whether a symbolic link is on the way to `absolute` (to say so in the message). */
function hasLink(absolute: string): boolean {
  for (let p = absolute; dirname(p) !== p; p = dirname(p)) {
    try {
      if (lstatSync(p).isSymbolicLink()) return true;
    } catch {
      /* not there */
    }
  }
  return false;
}
