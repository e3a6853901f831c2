// The afterPack hook that writes the packaged app's Electron fuses (electron-builder 25 has no
// `electronFuses`), on synthetic binaries that carry Electron's fuse wire: it finds the binary for
// each platform, flips exactly the configured fuses, handles a universal macOS binary (two wires),
// and refuses what it cannot do safely.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

type Fuses = Record<string, boolean>;
interface FusesModule {
  ELECTRON_FUSES: Fuses;
  readFuses: (file: string) => Record<string, boolean | 'removed'>;
  flipFuses: (file: string, fuses: Fuses) => number;
  fuseFile: (context: unknown) => string;
  afterPack: (context: unknown) => Promise<void>;
}

const hookPath = new URL('../../build/electron-fuses.mjs', import.meta.url).href;
const fusesModule = (await import(hookPath)) as FusesModule;
const { ELECTRON_FUSES, afterPack, flipFuses, fuseFile, readFuses } = fusesModule;

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron's defaults, one ASCII byte per fuse: runAsNode on, cookie encryption off, NODE_OPTIONS on,
// --inspect on, asar integrity off, only-asar off, browser V8 snapshot off, file:// privileges on, wasm trap handlers on.
const STOCK_WIRE = '101100011';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lots-fuses-'));
  dirs.push(dir);
  return dir;
}

function fakeElectron(path: string, wires = [STOCK_WIRE]): string {
  mkdirSync(dirname(path), { recursive: true });
  const parts = [Buffer.alloc(4096, 0x41)];
  for (const wire of wires) parts.push(Buffer.from(SENTINEL), Buffer.from([1, wire.length]), Buffer.from(wire), Buffer.alloc(512, 0x42));
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

function context(appOutDir: string, electronPlatformName: string) {
  return { appOutDir, electronPlatformName, packager: { appInfo: { productFilename: 'LOTS Studio' }, executableName: 'lots-studio' } };
}

describe('Electron fuses', () => {
  it('reads Electron’s stock wire', () => {
    const file = fakeElectron(join(tempDir(), 'electron'));
    expect(readFuses(file)).toMatchObject({
      runAsNode: true,
      enableCookieEncryption: false,
      onlyLoadAppFromAsar: false,
      grantFileProtocolExtraPrivileges: true,
    });
  });

  it('afterPack flips the configured fuses of the Linux, Windows and macOS binaries, and only those bytes', async () => {
    for (const [platform, relative] of [
      ['linux', 'lots-studio'],
      ['win32', 'LOTS Studio.exe'],
      ['darwin', 'LOTS Studio.app/Contents/Frameworks/Electron Framework.framework/Electron Framework'],
    ] as const) {
      const out = tempDir();
      const file = fakeElectron(join(out, relative));
      expect(fuseFile(context(out, platform))).toBe(file);
      const before = readFileSync(file);
      await afterPack(context(out, platform));
      const after = readFileSync(file);
      expect(readFuses(file)).toMatchObject({ ...ELECTRON_FUSES, loadBrowserProcessSpecificV8Snapshot: false, wasmTrapHandlers: true });
      expect(readFuses(file).runAsNode).toBe(false);
      const changed = [...after.keys()].filter((i) => after[i] !== before[i]).length;
      expect(changed).toBe(Object.entries(ELECTRON_FUSES).filter(([name, on]) => readFusesOf(before)[name] !== on).length);
    }
  });

  it('flips both wires of a universal macOS binary', () => {
    const file = fakeElectron(join(tempDir(), 'Electron Framework'), [STOCK_WIRE, STOCK_WIRE]);
    expect(flipFuses(file, { runAsNode: false })).toBe(2);
    const bytes = readFileSync(file).toString('latin1');
    const wires = bytes
      .split(SENTINEL)
      .slice(1)
      .map((w) => w.slice(2, 2 + STOCK_WIRE.length));
    expect(wires).toEqual(['001100011', '001100011']);
  });

  it('refuses a file without a fuse wire, a fuse the wire is too short for, a removed fuse and an unknown name', () => {
    const dir = tempDir();
    const plain = join(dir, 'not-electron');
    writeFileSync(plain, 'hello');
    expect(() => flipFuses(plain, { runAsNode: false })).toThrow(/found 0/);
    const short = fakeElectron(join(dir, 'old-electron'), ['10110']);
    expect(() => flipFuses(short, { grantFileProtocolExtraPrivileges: false })).toThrow(/no fuse "grantFileProtocolExtraPrivileges"/);
    expect(readFileSync(short).includes(Buffer.from('10110'))).toBe(true); // nothing written
    const removed = fakeElectron(join(dir, 'removed'), ['r01100011']);
    expect(() => flipFuses(removed, { runAsNode: false })).toThrow(/was removed/);
    expect(() => flipFuses(short, { runAsnode: false })).toThrow(/unknown Electron fuse "runAsnode"/);
  });
});

/** The fuses of a binary held in memory (the file was rewritten since). */
function readFusesOf(bytes: Buffer): Record<string, boolean | 'removed'> {
  const dir = tempDir();
  const file = join(dir, 'copy');
  writeFileSync(file, bytes);
  return readFuses(file);
}
