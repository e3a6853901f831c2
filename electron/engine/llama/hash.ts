// The model file hash that keys stored scores: scores computed with one model are never reused for
// another, and a renamed or moved copy of the same file keeps its scores. The full-file SHA-256 is
// cached per (path, size, mtime) in this process so a job hashes a multi-GB file once.
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkModelPath } from './model-file';

const cache = new Map<string, string>();

/** First 16 hex digits of the file's SHA-256. */
export async function modelFileHash(path: string): Promise<string> {
  const { path: abs } = checkModelPath(path);
  const st = statSync(abs);
  const key = `${resolve(abs)}|${st.size}|${st.mtimeMs}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const hash = createHash('sha256');
  await new Promise<void>((done, fail) => {
    createReadStream(abs, { highWaterMark: 4 << 20 })
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => done())
      .on('error', fail);
  });
  const digest = hash.digest('hex').slice(0, 16);
  cache.set(key, digest);
  return digest;
}
