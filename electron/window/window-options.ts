// The main window's options, kept apart from main.ts so a test can assert the security settings
// without launching Electron (only types are imported from 'electron').
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/** Electron's security checklist, as it applies to the Studio's one renderer. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    // A file dropped on the window is imported by the page, never navigated to.
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}

export function mainWindowOptions(preloadPath: string, dark: boolean): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 960,
    minHeight: 600,
    title: 'LOTS Studio',
    // Shown on ready-to-show with the theme's background: no white flash, no layout jump.
    show: false,
    backgroundColor: dark ? '#15171c' : '#f7f7f5',
    webPreferences: secureWebPreferences(preloadPath),
  };
}

/** The renderer is served from this origin (a privileged custom protocol, not file://). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'lots';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;
