// The export view: the chosen format and its rendered text (saving and copying are done by the view). A
// task with no approved space is refused by the engine (SPACE_NOT_APPROVED): the view shows why, in place
// of a text to download.
import { ApiError, type ExportFormat, type ExportText, type StudioApi } from '../../shared/api';
import type { SliceCreator } from './types';

export interface ExportSlice {
  exportFormat: ExportFormat;
  exportText: ExportText | null;
  exportKey: string;
  /** Why the task cannot be exported (no approved space); null when it can. */
  exportRefused: string | null;
  /** mcp-claude: the MCP server's name for `mcp__<server>__<tool>` names. */
  mcpServer: string;
  setMcpServer(name: string): void;
  setExportFormat(format: ExportFormat): void;
  loadExport(task: string): Promise<void>;
  saveExportTo(task: string, path: string): Promise<boolean>;
  saveReportTo(task: string, path: string): Promise<boolean>;
}

export const createExportSlice =
  (api: StudioApi): SliceCreator<ExportSlice> =>
  (set, get) => ({
    exportFormat: 'space',
    exportText: null,
    exportKey: '',
    exportRefused: null,
    mcpServer: '',

    setMcpServer(mcpServer) {
      set({ mcpServer }, false, 'export/mcp-server');
    },

    setExportFormat(exportFormat) {
      set({ exportFormat }, false, 'export/format');
    },

    async loadExport(task) {
      const format = get().exportFormat;
      const key = exportKeyOf(task, format, get().dataVersion, get().mcpServer);
      try {
        const exportText = await api.renderExport({ task, format, ...mcpServerOf(format, get().mcpServer) });
        set({ exportText, exportKey: key, exportRefused: null }, false, 'export/render');
      } catch (e) {
        if (e instanceof ApiError && e.code === 'SPACE_NOT_APPROVED') {
          set({ exportText: null, exportKey: key, exportRefused: e.message }, false, 'export/refused');
          return;
        }
        set({ exportText: null, exportKey: key, exportRefused: null }, false, 'export/render-failed');
        get().fail(e, `Cannot export ${task} as ${format}`);
      }
    },

    async saveExportTo(task, path) {
      try {
        const format = get().exportFormat;
        const saved = await api.saveExport({ task, format, path, ...mcpServerOf(format, get().mcpServer) });
        get().notify({ kind: 'success', title: 'Saved', message: saved.path });
        return true;
      } catch (e) {
        get().fail(e, 'Not saved');
        return false;
      }
    },

    async saveReportTo(task, path) {
      try {
        const saved = await api.saveReport({ task, path });
        get().notify({ kind: 'success', title: 'Report saved', message: saved.path });
        return true;
      } catch (e) {
        get().fail(e, 'The report was not saved');
        return false;
      }
    },
  });

/** Which render the export text is of: a change of any part renders again. */
export function exportKeyOf(task: string, format: ExportFormat, dataVersion: number, mcpServer: string): string {
  return [task, format, dataVersion, format === 'mcp-claude' ? mcpServer : ''].join('\u0000');
}

export function mcpServerOf(format: ExportFormat, name: string): { mcpServer?: string } {
  return format === 'mcp-claude' && name.trim() ? { mcpServer: name.trim() } : {};
}
