// The Electron security settings, asserted without launching Electron: the window options, the IPC
// handler wrapper (sender check + input validation), navigation/new-window blocking, the channels, and
// the packaged app's fuses and packaging config (validated by the installed electron-builder).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { API_METHOD_NAMES, methodChannel } from '../../shared/api/channels';
import { apiInputSchemas } from '../../shared/api/schemas';
import { contentSecurityPolicy } from '../../shared/api/csp';
import type { ApiMethods } from '../../shared/api/contract';
import { isTrustedSender, registerApiHandlers, type IpcMainLike, type SenderEvent } from '../../electron/ipc/handlers';
import { hardenWebContents } from '../../electron/window/navigation';
import { APP_ENTRY, mainWindowOptions, secureWebPreferences } from '../../electron/window/window-options';

describe('window options', () => {
  it('isolate the page: contextIsolation, sandbox, no nodeIntegration anywhere, web security on', () => {
    const prefs = mainWindowOptions('/app/preload.cjs', false).webPreferences!;
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
    expect(prefs.preload).toBe('/app/preload.cjs');
    expect(secureWebPreferences('x')).toEqual({ ...prefs, preload: 'x' });
  });

  it('load the renderer from the app:// origin, not file://', () => {
    expect(APP_ENTRY.startsWith('app://lots/')).toBe(true);
  });

  it('ship a strict CSP: scripts only from the app, no inline, no eval, no plugins, no framing', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});

type Handler = (event: SenderEvent, ...args: unknown[]) => Promise<unknown>;

function fakeIpc(): IpcMainLike & { handlers: Map<string, Handler> } {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle: (channel, listener) => {
      handlers.set(channel, listener as unknown as Handler);
    },
    removeHandler: (channel) => {
      handlers.delete(channel);
    },
  };
}

const frame = (url: string, parent: unknown = null) => ({ url, parent }) as unknown as SenderEvent['senderFrame'];
const trusted: SenderEvent = { senderFrame: frame('app://lots/index.html'), sender: { id: 1 } };

describe('IPC handler wrapper', () => {
  const calls: unknown[] = [];
  const service = {
    getAppInfo: async () => ({ version: 'x', transport: 'electron', platform: 'linux', nativeDialogs: true }),
    openProject: async (input: unknown) => {
      calls.push(input);
      return { ok: 'opened' };
    },
  } as unknown as ApiMethods;

  it('registers exactly one handler per method, on namespaced channels', () => {
    const ipc = fakeIpc();
    registerApiHandlers(ipc, service, () => true);
    expect([...ipc.handlers.keys()].sort()).toEqual(API_METHOD_NAMES.map(methodChannel).sort());
    expect([...ipc.handlers.keys()].every((c) => c.startsWith('lots:call:'))).toBe(true);
  });

  it('refuses senders that are not our top-level app frame', async () => {
    const ipc = fakeIpc();
    const windows = new Set([1]);
    registerApiHandlers(ipc, service, (e) => isTrustedSender(e, windows));
    const call = ipc.handlers.get(methodChannel('openProject'))!;
    const untrusted: SenderEvent[] = [
      { senderFrame: frame('https://evil.example/'), sender: { id: 1 } },
      { senderFrame: frame('file:///etc/passwd'), sender: { id: 1 } },
      { senderFrame: frame('app://lots/index.html', {}), sender: { id: 1 } },
      { senderFrame: frame('app://lots/index.html'), sender: { id: 2 } },
      { senderFrame: null, sender: { id: 1 } },
    ];
    for (const e of untrusted) {
      expect(await call(e, { dir: '/tmp/x' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect(calls).toEqual([]);
    expect(await call(trusted, { dir: '/tmp/x' })).toEqual({ ok: true, value: { ok: 'opened' } });
    expect(calls).toEqual([{ dir: '/tmp/x' }]);
  });

  it('validates input with the contract schema before the service sees it', async () => {
    const ipc = fakeIpc();
    registerApiHandlers(ipc, service, () => true);
    const call = ipc.handlers.get(methodChannel('openProject'))!;
    const before = calls.length;
    expect(await call(trusted, { dir: 7 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await call(trusted, { dir: '/x', extra: true })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await call(trusted)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(calls.length).toBe(before);
  });

  it('removes every handler it registered', () => {
    const ipc = fakeIpc();
    const off = registerApiHandlers(ipc, service, () => true);
    off();
    expect(ipc.handlers.size).toBe(0);
  });
});

describe('navigation', () => {
  it('blocks navigation away from the app and every new window', () => {
    const listeners = new Map<string, (event: { preventDefault(): void }, url: string) => void>();
    let openHandler: ((d: { url: string }) => { action: string }) | undefined;
    const opened: string[] = [];
    hardenWebContents(
      {
        on: ((name: string, fn: (event: { preventDefault(): void }, url: string) => void) => listeners.set(name, fn)) as never,
        setWindowOpenHandler: ((fn: (d: { url: string }) => { action: string }) => {
          openHandler = fn;
        }) as never,
      },
      (url) => opened.push(url),
    );
    const tryNavigate = (url: string) => {
      let prevented = false;
      listeners.get('will-navigate')!({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(tryNavigate('https://evil.example/')).toBe(true);
    expect(tryNavigate('file:///etc/passwd')).toBe(true);
    expect(tryNavigate('app://lots/index.html#/heatmap')).toBe(false);
    expect(openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'https://github.com/some/repo' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://github.com/some/repo']);
    let prevented = false;
    listeners.get('will-attach-webview')!({ preventDefault: () => (prevented = true) }, '');
    expect(prevented).toBe(true);
  });
});

describe('the contract', () => {
  it('lists the same methods in the channel list (preload) and the schema map (validation)', () => {
    expect([...API_METHOD_NAMES].sort()).toEqual(Object.keys(apiInputSchemas).sort());
  });
});

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
// js-yaml comes with electron-builder; no YAML dependency of our own.
const yaml = require('js-yaml') as { load(text: string): unknown };
const builderConfig = yaml.load(readFileSync(join(ROOT, 'build/electron-builder.yml'), 'utf8')) as Record<string, unknown>;

type Fuses = Record<string, boolean>;

/** Installed package folders (relative to the root) that `name` needs at run time, itself excluded. */
function dependencyClosure(name: string): string[] {
  const seen = new Set<string>();
  const find = (dep: string, from: string): string | undefined => {
    for (let dir = from; ; dir = dirname(dir)) {
      const candidate = join(dir, 'node_modules', dep);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
      if (dir === ROOT || dirname(dir) === dir) return undefined;
    }
  };
  const visit = (dir: string) => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: object; optionalDependencies?: object };
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const found = find(dep, dir);
      if (!found || seen.has(found)) continue;
      seen.add(found);
      visit(found);
    }
  };
  visit(join(ROOT, 'node_modules', name));
  return [...seen].map((dir) => relative(ROOT, dir).split(sep).join('/'));
}

/** The fuses the packaged app gets: electron-builder 26's `electronFuses`, or (25) the afterPack hook's. */
async function packagedFuses(): Promise<{ fuses: Fuses; where: string }> {
  if (builderConfig.electronFuses) return { fuses: builderConfig.electronFuses as Fuses, where: 'electronFuses' };
  const hook = String(builderConfig.afterPack);
  const module = (await import(pathToFileURL(resolve(ROOT, hook)).href)) as { ELECTRON_FUSES: Fuses; afterPack: unknown };
  expect(typeof module.afterPack).toBe('function');
  return { fuses: module.ELECTRON_FUSES, where: hook };
}

describe('the packaged app', () => {
  it('turns runAsNode off (workers are utility processes) and the other risky fuses with it', async () => {
    const { fuses, where } = await packagedFuses();
    expect(where).toMatch(/electronFuses|electron-fuses\.mjs$/);
    expect(fuses.runAsNode).toBe(false);
    expect(fuses.enableNodeOptionsEnvironmentVariable).toBe(false);
    expect(fuses.enableNodeCliInspectArguments).toBe(false);
    expect(fuses.onlyLoadAppFromAsar).toBe(true);
    expect(fuses.enableEmbeddedAsarIntegrityValidation).toBe(true);
    expect(fuses.grantFileProtocolExtraPrivileges).toBe(false);
  });

  it('has a config the installed electron-builder accepts, with node-llama-cpp outside the asar', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration: (config: unknown, debug: { isEnabled: boolean; add(): void }) => Promise<void>;
    };
    await expect(validateConfiguration(builderConfig, { isEnabled: false, add: () => undefined })).resolves.toBeUndefined();
    // The same validator refuses what this version does not know (so the check above can fail).
    await expect(validateConfiguration({ ...builderConfig, notAnOption: true }, { isEnabled: false, add: () => undefined })).rejects.toThrow(/notAnOption/);
    expect(builderConfig.asar).toBe(true);
    expect(builderConfig.asarUnpack).toEqual(
      expect.arrayContaining(['node_modules/node-llama-cpp/bins/**', 'node_modules/node-llama-cpp/llama/localBuilds/**', 'node_modules/@node-llama-cpp/**']),
    );
    const files = builderConfig.files as string[];
    expect(files).toEqual(expect.arrayContaining(['package.json', 'dist/renderer/**', 'dist-electron/**']));
    // The BFCL driver runs in an outside Python: a plain file in the resources, where driverPath() looks.
    expect(builderConfig.extraResources).toEqual([{ from: 'electron/engine/bfcl/driver.py', to: 'bfcl/driver.py' }]);
    expect(existsSync(join(ROOT, 'electron/engine/bfcl/driver.py'))).toBe(true);
  });

  it('ships node-llama-cpp and everything it depends on in node_modules (no exclusion hits them)', () => {
    const files = builderConfig.files as string[];
    const loaded = require('minimatch') as ((path: string, pattern: string, options?: object) => boolean) & {
      minimatch?: (path: string, pattern: string, options?: object) => boolean;
    };
    const matches = loaded.minimatch ?? loaded;
    const excluded = files.filter((f) => f.startsWith('!')).map((f) => f.slice(1));
    const shipped = [
      'node_modules/node-llama-cpp/package.json',
      'node_modules/node-llama-cpp/dist/index.js',
      ...dependencyClosure('node-llama-cpp').map((dir) => `${dir}/package.json`),
    ];
    expect(shipped.length).toBeGreaterThan(20);
    const dropped = shipped.filter((path) => excluded.some((pattern) => matches(path, pattern, { dot: true })));
    expect(dropped).toEqual([]);
    // …while the packages only the bundles need are excluded (the check above can fail).
    expect(excluded.some((pattern) => matches('node_modules/recharts/package.json', pattern, { dot: true }))).toBe(true);
  });
});
