// The native menu: every entry sends a MenuCommand to the renderer, which runs the same action as the
// page's own buttons and shortcuts (one place decides what "Open…" does).
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../../shared/api/types';

export function buildMenuTemplate(
  send: (command: MenuCommand) => void,
  isMac: boolean,
  recent: { dir: string; name: string }[],
  openRecent: (dir: string) => void,
): MenuItemConstructorOptions[] {
  const item = (label: string, command: MenuCommand, accelerator?: string): MenuItemConstructorOptions => ({ label, accelerator, click: () => send(command) });
  const views: [string, MenuCommand][] = [
    ['Project Home', 'view/home'],
    ['Attribution Heatmap', 'view/heatmap'],
    ['Trace Inspector', 'view/trace'],
    ['Ranking', 'view/ranking'],
    ['Budget Sweep', 'view/budget'],
    ['Space Editor', 'view/space'],
    ['Export', 'view/export'],
    ['Jobs', 'view/jobs'],
    ['Models', 'view/models'],
  ];
  return [
    ...(isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    {
      label: 'File',
      submenu: [
        item('New Project…', 'project/new', 'CmdOrCtrl+Shift+N'),
        item('Open Project…', 'project/open', 'CmdOrCtrl+O'),
        {
          label: 'Open Recent',
          submenu:
            recent.length > 0
              ? recent.map((r) => ({ label: `${r.name} — ${r.dir}`, click: () => openRecent(r.dir) }))
              : [{ label: 'No recent projects', enabled: false }],
        },
        { type: 'separator' },
        item('Import Traces…', 'traces/import', 'CmdOrCtrl+I'),
        item('Export Space…', 'export/open', 'CmdOrCtrl+E'),
        { type: 'separator' },
        item('Close Project', 'project/close', 'CmdOrCtrl+Shift+W'),
        ...(isMac ? [] : [{ type: 'separator' } as MenuItemConstructorOptions, { role: 'quit' } as MenuItemConstructorOptions]),
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...views.map(([label, command], i) => item(label, command, `CmdOrCtrl+${i + 1}`)),
        item('Gateways', 'view/gateway'),
        { type: 'separator' },
        item('Find in Heatmap', 'view/find', 'CmdOrCtrl+F'),
        item('Toggle Dark Theme', 'view/toggle-theme', 'CmdOrCtrl+Shift+D'),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { role: 'togglefullscreen' },
      ],
    },
    { label: 'Demo', submenu: [item('Run the Built-in Demo…', 'demo/open')] },
    { role: 'windowMenu' },
    { role: 'help', submenu: [item('Keyboard Shortcuts (?)', 'help/shortcuts')] },
  ];
}
