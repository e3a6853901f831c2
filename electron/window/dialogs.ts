// Native open/save dialogs behind the service's NativeDialogs hook.
import type { BrowserWindow, Dialog } from 'electron';
import type { NativeDialogs } from '../engine/api';

export function nativeDialogs(dialog: Dialog, window: () => BrowserWindow | undefined): NativeDialogs {
  return {
    async pickPath(kind, defaultName) {
      const win = window();
      if (kind === 'save') {
        const r = win ? await dialog.showSaveDialog(win, { defaultPath: defaultName }) : await dialog.showSaveDialog({ defaultPath: defaultName });
        return r.canceled || !r.filePath ? null : [r.filePath];
      }
      const options: Electron.OpenDialogOptions =
        kind === 'project'
          ? { title: 'Open or create a project folder', properties: ['openDirectory', 'createDirectory'] }
          : kind === 'model'
            ? { title: 'Choose a GGUF model', properties: ['openFile'], filters: [{ name: 'GGUF models', extensions: ['gguf'] }] }
            : {
                title: 'Import trace files',
                properties: ['openFile', 'multiSelections'],
                filters: [
                  { name: 'Traces', extensions: ['jsonl', 'json', 'ndjson'] },
                  { name: 'All files', extensions: ['*'] },
                ],
              };
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths;
    },
  };
}
