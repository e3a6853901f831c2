// Serving the built renderer (vite's output) with correct types and without path traversal.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  type: string;
}

/** The file for a URL path inside `root`, or undefined (missing, a folder, or outside the root). */
export function resolveStatic(root: string, urlPath: string): StaticFile | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const base = resolve(root);
  const file = resolve(base, '.' + normalize('/' + decoded));
  if (file !== base && !file.startsWith(base + sep)) return undefined;
  const target = file === base ? join(base, 'index.html') : file;
  if (!existsSync(target) || !statSync(target).isFile()) return undefined;
  return { body: readFileSync(target), type: TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream' };
}
