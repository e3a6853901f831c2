// Builds real wheel files (ZIP archives with a *.dist-info/METADATA) for the model-pull tests, and a
// local "index" folder that the real pip reads with --no-index --find-links (set through pip's own
// environment variables, as a user's pip configuration would be).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { crc32Update } from '../../../electron/engine/models/zip';

export interface WheelFile {
  name: string;
  data: Buffer;
  /** Stored instead of deflated. */
  stored?: boolean;
}

export function zipFiles(files: readonly WheelFile[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.name, 'utf8');
    const body = f.stored ? f.data : deflateRawSync(f.data);
    const crc = crc32Update(0, f.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(f.stored ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(f.stored ? 0 : 8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(f.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export interface WheelSpec {
  name: string;
  version: string;
  requires?: string[];
  /** Files under the package's import folder: path → bytes. */
  files?: Record<string, Buffer>;
  summary?: string;
}

/** Writes `<name>-<version>-py3-none-any.whl` into `dir` and returns its path. */
export function writeWheel(dir: string, spec: WheelSpec): string {
  mkdirSync(dir, { recursive: true });
  const mod = spec.name.replace(/-/g, '_');
  const info = `${mod}-${spec.version}.dist-info`;
  const metadata = [
    'Metadata-Version: 2.1',
    `Name: ${spec.name}`,
    `Version: ${spec.version}`,
    `Summary: ${spec.summary ?? 'test wheel'}`,
    ...(spec.requires ?? []).map((r) => `Requires-Dist: ${r}`),
    '',
    'A wheel made by the LOTS tests.',
  ].join('\n');
  const files: WheelFile[] = [
    { name: `${mod}/__init__.py`, data: Buffer.from('') },
    ...Object.entries(spec.files ?? {}).map(([path, data]) => ({ name: `${mod}/${path}`, data })),
    { name: `${info}/METADATA`, data: Buffer.from(metadata) },
    { name: `${info}/WHEEL`, data: Buffer.from('Wheel-Version: 1.0\nGenerator: lots-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n') },
    { name: `${info}/RECORD`, data: Buffer.from('') },
  ];
  const path = join(dir, `${mod}-${spec.version}-py3-none-any.whl`);
  writeFileSync(path, zipFiles(files));
  return path;
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** pip reads its options from PIP_* variables: no index, only this folder. */
export function localIndexEnv(indexDir: string): Record<string, string> {
  return { PIP_NO_INDEX: '1', PIP_FIND_LINKS: indexDir, PIP_CONFIG_FILE: '/dev/null', PIP_NO_CACHE_DIR: '1' };
}

/** Split `data` into `n` nearly equal chunks. */
export function split(data: Buffer, n: number): Buffer[] {
  const size = Math.ceil(data.length / n);
  return Array.from({ length: n }, (_, i) => data.subarray(i * size, Math.min(data.length, (i + 1) * size)));
}
