// Only regular files are imported. A device (/dev/zero, /dev/random), a named pipe, a socket or a folder
// would never end or never start: reading it would hold the project's write lock forever. So every import
// checks its inputs up front, before the lock is taken (symbolic links are followed: a link to a regular
// file is fine).
import { statSync, type Stats } from 'node:fs';
import { errorCode, ExpectedError } from '../../../shared/api/errors';

function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a named pipe (FIFO)';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  return 'a special file';
}

/** Throws INVALID_INPUT (one line, naming the file) unless `path` is a regular file; `name` is how the user gave it. */
export function assertRegularFile(path: string, name = path): void {
  let s: Stats;
  try {
    s = statSync(path);
  } catch (e) {
    const code = errorCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ExpectedError('INVALID_INPUT', `${name}: no such file`);
    throw e;
  }
  checkStats(s, name);
}

/** The same check on stats already taken. */
export function checkStats(s: Stats, name: string): void {
  if (!s.isFile()) throw new ExpectedError('INVALID_INPUT', `${name} is ${kindOf(s)}, not a regular file; only trace files can be imported`);
}
