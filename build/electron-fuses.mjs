// Electron fuses of the packaged app, flipped by electron-builder's afterPack hook (this module's
// `afterPack`): electron-builder 25 has no `electronFuses` option (26 has), and @electron/fuses is not
// a dependency, so the fuse wire is written here. The wire is a sentinel string followed by a version
// byte (1), a length byte and one ASCII byte per fuse: '0' off, '1' on, 'r' removed.
// https://www.electronjs.org/docs/latest/tutorial/fuses
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Electron's security checklist as fuses; names as electron-builder 26's `electronFuses`. */
export const ELECTRON_FUSES = Object.freeze({
  // Off: scoring and sweeps run in utility processes (electron/worker-launcher.ts), so nothing needs
  // the app binary to act as plain Node (ELECTRON_RUN_AS_NODE).
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  // electron-builder embeds the asar's hash on macOS and Windows; Linux does not check it.
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  // The UI is served from app://, not file://.
  grantFileProtocolExtraPrivileges: false,
});

/** Position of each fuse on the V1 wire. */
const FUSE_INDEX = {
  runAsNode: 0,
  enableCookieEncryption: 1,
  enableNodeOptionsEnvironmentVariable: 2,
  enableNodeCliInspectArguments: 3,
  enableEmbeddedAsarIntegrityValidation: 4,
  onlyLoadAppFromAsar: 5,
  loadBrowserProcessSpecificV8Snapshot: 6,
  grantFileProtocolExtraPrivileges: 7,
  wasmTrapHandlers: 8,
};

const SENTINEL = Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX');
const WIRE_VERSION = 1;
const OFF = 0x30;
const ON = 0x31;
const REMOVED = 0x72;

function wires(bytes, file) {
  const found = [];
  for (let at = bytes.indexOf(SENTINEL); at !== -1; at = bytes.indexOf(SENTINEL, at + 1)) found.push(at + SENTINEL.length);
  // A universal macOS binary holds one wire per architecture.
  if (found.length === 0 || found.length > 2)
    throw new Error(`${file}: expected one or two Electron fuse wires, found ${found.length}; is this an Electron binary?`);
  return found.map((start) => {
    const version = bytes[start];
    const length = bytes[start + 1];
    if (version !== WIRE_VERSION) throw new Error(`${file}: fuse wire version ${version}, this script writes version ${WIRE_VERSION}`);
    return { first: start + 2, length };
  });
}

/** The fuses of an Electron binary: true / false, or 'removed'. */
export function readFuses(file) {
  const bytes = readFileSync(file);
  const [wire] = wires(bytes, file);
  const out = {};
  for (const [name, index] of Object.entries(FUSE_INDEX)) {
    if (index >= wire.length) continue;
    const b = bytes[wire.first + index];
    out[name] = b === REMOVED ? 'removed' : b === ON;
  }
  return out;
}

/** Write `fuses` into every wire of `file` (in place); returns how many wires were written. */
export function flipFuses(file, fuses) {
  const bytes = readFileSync(file);
  const found = wires(bytes, file);
  const writes = [];
  for (const wire of found) {
    for (const [name, on] of Object.entries(fuses)) {
      const index = FUSE_INDEX[name];
      if (index === undefined) throw new Error(`unknown Electron fuse "${name}"; known: ${Object.keys(FUSE_INDEX).join(', ')}`);
      if (index >= wire.length) throw new Error(`${file}: this Electron has no fuse "${name}" (its wire holds ${wire.length} fuses)`);
      if (bytes[wire.first + index] === REMOVED) throw new Error(`${file}: fuse "${name}" was removed from this Electron; drop it from ELECTRON_FUSES`);
      writes.push({ at: wire.first + index, byte: on ? ON : OFF });
    }
  }
  const fd = openSync(file, 'r+');
  try {
    for (const { at, byte } of writes) writeSync(fd, Buffer.from([byte]), 0, 1, at);
  } finally {
    closeSync(fd);
  }
  return found.length;
}

/** The file that carries the fuse wire in an unpacked app (electron-builder's afterPack context). */
export function fuseFile(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  const product = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    return join(appOutDir, `${product}.app`, 'Contents', 'Frameworks', 'Electron Framework.framework', 'Electron Framework');
  }
  if (electronPlatformName === 'win32') return join(appOutDir, `${product}.exe`);
  return join(appOutDir, packager.executableName);
}

/** electron-builder hook: runs after the app is laid out, before it is signed and packed. */
export async function afterPack(context) {
  const file = fuseFile(context);
  const count = flipFuses(file, ELECTRON_FUSES);
  const now = readFuses(file);
  for (const [name, on] of Object.entries(ELECTRON_FUSES)) {
    if (now[name] !== on) throw new Error(`${file}: fuse "${name}" reads ${now[name]} after flipping`);
  }
  console.log(`  • electron fuses  file=${file} wires=${count} runAsNode=${now.runAsNode}`);
  // Changing the binary breaks Electron's ad-hoc signature; without a signing identity
  // electron-builder 25 leaves it broken and Apple silicon refuses to launch the app. With an
  // identity, electron-builder signs again after this hook.
  if ((context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas') && process.platform === 'darwin') {
    const app = join(context.appOutDir, `${context.packager.appInfo.productFilename}.app`);
    const r = spawnSync('codesign', ['--sign', '-', '--force', '--preserve-metadata=entitlements,requirements,flags,runtime', '--deep', app], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`ad-hoc codesign of ${app} failed: ${r.stderr}`);
  }
}
