// The Electron main process: one window on app://lots, native menus and dialogs, the API contract over
// IPC (through the checked wrapper in ipc/handlers.ts), engine events pushed to the window.
// Scoring and sweeps run in Electron utility processes (the engine's job queue, launched through
// worker-launcher.ts); nothing heavy runs on this event loop.
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeTheme, protocol, session, shell } from 'electron';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { eventChannel } from '../shared/api/channels';
import type { MenuCommand } from '../shared/api/types';
import { StudioService } from './engine/api';
import { ProjectStore } from './engine/store';
import { nativeDialogs } from './window/dialogs';
import { isTrustedSender, registerApiHandlers } from './ipc/handlers';
import { buildMenuTemplate } from './window/menu';
import { hardenWebContents, isAllowedExternal } from './window/navigation';
import { appProtocolResponse } from './window/protocol';
import { APP_ENTRY, APP_SCHEME, mainWindowOptions } from './window/window-options';
import { utilityProcessLauncher } from './worker-launcher';

// Bundled to dist-electron/main.js (the engine's workers next to it); the renderer is built to dist/renderer.
const here = fileURLToPath(new URL('.', import.meta.url));
const rendererDir = join(here, '..', 'dist', 'renderer');
const preloadPath = join(here, 'preload.cjs');

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }]);

const windowIds = new Set<number>();
let mainWindow: BrowserWindow | undefined;
let service: StudioService;

function createWindow(): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions(preloadPath, nativeTheme.shouldUseDarkColors));
  const id = win.webContents.id;
  windowIds.add(id);
  win.on('closed', () => {
    windowIds.delete(id);
    if (mainWindow === win) mainWindow = undefined;
  });
  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_ENTRY);
  mainWindow = win;
  return win;
}

function sendMenuCommand(command: MenuCommand): void {
  if (!mainWindow) createWindow();
  service.events.emit('menuCommand', command);
}

async function refreshMenu(): Promise<void> {
  const recent = await service.listRecentProjects();
  for (const r of recent) app.addRecentDocument(r.dir);
  const template = buildMenuTemplate(sendMenuCommand, process.platform === 'darwin', recent, (dir) => {
    try {
      service.setProject(ProjectStore.open(dir));
    } catch (e) {
      dialog.showErrorBox('Cannot open project', (e as Error).message);
    }
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });

  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, (url) => {
      if (isAllowedExternal(url)) void shell.openExternal(url);
    });
  });

  app
    .whenReady()
    .then(() => {
      // No camera, microphone, notifications, geolocation…: only writing text to the clipboard (Copy buttons).
      session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) => callback(permission === 'clipboard-sanitized-write'));
      protocol.handle(APP_SCHEME, (request) => appProtocolResponse(rendererDir, request.url));

      service = new StudioService({
        transport: 'electron',
        configDir: app.getPath('userData'),
        dialogs: nativeDialogs(dialog, () => mainWindow),
        launcher: utilityProcessLauncher(),
        sampleProjectDir: join(app.getAppPath().replace(/app\.asar$/, 'app.asar.unpacked'), 'assets', 'sample-project'),
      });
      registerApiHandlers(ipcMain, service, (event) => isTrustedSender(event, windowIds));
      service.events.onAny((event, payload) => {
        for (const win of BrowserWindow.getAllWindows()) if (windowIds.has(win.webContents.id)) win.webContents.send(eventChannel(event), payload);
        if (event === 'projectChanged') void refreshMenu();
      });

      // `lots-studio <project dir>` opens that project.
      const dirArg = process.argv.slice(app.isPackaged ? 1 : 2).find((a) => !a.startsWith('-'));
      if (dirArg) {
        try {
          service.setProject(ProjectStore.open(dirArg));
        } catch (e) {
          console.error(`lots: cannot open ${dirArg}: ${(e as Error).message}`);
        }
      }
      void refreshMenu();
      createWindow();
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) createWindow();
      });
    })
    .catch((e) => {
      dialog.showErrorBox('LOTS Studio failed to start', e instanceof Error ? (e.stack ?? e.message) : String(e));
      app.quit();
    });

  app.on('will-quit', () => service?.dispose());

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
