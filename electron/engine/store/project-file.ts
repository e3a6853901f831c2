// What every record type of a project shares: its file names for tasks, and how a JSON document of the
// project is read back (checked against its schema; a damaged file is an expected error naming it).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { describeZodError } from '../../../shared/trace/validate';
import { ExpectedError, isFsError } from '../../../shared/api/errors';
import type { ProjectLock } from './lock';

/** A problem found while reading (torn lines, bad records); shown to the user, never fatal. */
export interface StoreWarning {
  file: string;
  message: string;
}

export interface ActivityEntry {
  at: string;
  kind: string;
  message: string;
  data?: Record<string, unknown>;
}

/** What each record type of the store is given by the facade (project-store.ts): the project folder, the
 * warnings list it adds to, the write lock, the clock, and the activity log a committed write notes. */
export interface StoreContext {
  readonly dir: string;
  readonly warnings: StoreWarning[];
  readonly lock: ProjectLock;
  readonly now: () => Date;
  logActivityAfterCommit(entry: Omit<ActivityEntry, 'at'>, what: string): void;
}

/** A file-system-safe name for a task (tasks are free text). */
export function taskFileName(task: string): string {
  const safe = task.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60);
  return `${safe}-${createHash('sha256').update(task).digest('hex').slice(0, 8)}.json`;
}

/**
 * A JSON file of the project, checked against its schema. Missing: undefined. Damaged (cut short by a
 * crash or a full disk, edited by hand, written by something else): an expected error that names the
 * file, says what is wrong and what to do (`remedy` starts with "or …", after "restore it from a backup").
 */
export function readProjectFile<T>(path: string, schema: z.ZodType<T>, remedy: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (isFsError(e, 'ENOENT')) return undefined;
    if (isFsError(e, 'EISDIR'))
      throw new ExpectedError(
        'PROJECT_FILE_DAMAGED',
        `${path} is a folder where LOTS Studio keeps a file: move that folder out of the project (or delete it if it is empty), then run the command again`,
      );
    throw e;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw damagedFile(path, text.trim() === '' ? 'the file is empty' : (e as Error).message, remedy);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw damagedFile(path, `not what LOTS Studio wrote: ${describeZodError(parsed.error)}`, remedy);
  return parsed.data;
}

export function damagedFile(path: string, why: string, remedy: string): ExpectedError {
  return new ExpectedError('PROJECT_FILE_DAMAGED', `${path} is damaged (${why}); restore it from a backup, ${remedy}.`);
}
