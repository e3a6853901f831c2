// No navigation away from the app and no new windows: the renderer is a single page; links to the web
// open in the user's browser only when they are https and on the allow-list.
import type { WebContents } from 'electron';
import { APP_ORIGIN } from './window-options';

const EXTERNAL_ALLOWED = ['https://github.com/', 'https://huggingface.co/', 'https://node-llama-cpp.withcat.ai/'];

export function isAllowedExternal(url: string): boolean {
  return EXTERNAL_ALLOWED.some((prefix) => url.startsWith(prefix));
}

export function isAppUrl(url: string): boolean {
  return url === APP_ORIGIN || url.startsWith(APP_ORIGIN + '/');
}

export function hardenWebContents(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>, openExternal: (url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternal(url)) openExternal(url);
    return { action: 'deny' };
  });
}
