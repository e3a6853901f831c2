// Browser-side file helpers: what an import of dropped/picked files sends, and saving text as a download.
import { BRIDGE_GLOBAL, type ApiInput, type LotsBridge } from '../../shared/api';

export async function readFiles(files: FileList | File[]): Promise<{ name: string; text: string }[]> {
  return Promise.all([...files].map(async (f) => ({ name: f.name, text: await f.text() })));
}

/**
 * The import of dropped or picked files. In the desktop app every file has a path on disk: the paths are
 * sent and the engine streams the files itself (a 1 GB file is never read into the page, sent over IPC
 * and written back). A browser has no paths: it sends the contents (the web host streams them to a temp
 * file). `bridge`: the desktop preload's, when the page runs in the app.
 */
export async function importInput(
  files: FileList | File[],
  bridge: Pick<LotsBridge, 'pathForFile'> | undefined = desktopBridge(),
): Promise<ApiInput<'importTraces'>> {
  const list = [...files];
  const paths = bridge ? list.map((f) => bridge.pathForFile(f)) : [];
  if (bridge && paths.every((p) => p !== '')) return { paths };
  return { files: await readFiles(list) };
}

function desktopBridge(): Pick<LotsBridge, 'pathForFile'> | undefined {
  const bridge = (globalThis as unknown as Record<string, Partial<LotsBridge> | undefined>)[BRIDGE_GLOBAL];
  return typeof bridge?.pathForFile === 'function' ? (bridge as Pick<LotsBridge, 'pathForFile'>) : undefined;
}

export function downloadText(filename: string, text: string, mime = 'text/plain'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mime};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Fallback for contexts without the async clipboard (older embedders).
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}
