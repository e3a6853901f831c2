// The export view: the chosen format and its rendered text (saving and copying are done by the view).
import type { ExportFormat, ExportText, StudioApi } from '../../shared/api';
import type { SliceCreator } from './types';

export interface ExportSlice {
  exportFormat: ExportFormat;
  exportText: ExportText | null;
  exportKey: string;
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

    setExportFormat(exportFormat) {
      set({ exportFormat }, false, 'export/format');
    },

    async loadExport(task) {
      const format = get().exportFormat;
      const key = `${task}\u0000${format}\u0000${get().dataVersion}`;
      try {
        const exportText = await api.renderExport({ task, format });
        set({ exportText, exportKey: key }, false, 'export/render');
      } catch (e) {
        set({ exportText: null, exportKey: key }, false, 'export/render-failed');
        get().fail(e, `Cannot export ${task} as ${format}`);
      }
    },

    async saveExportTo(task, path) {
      try {
        const saved = await api.saveExport({ task, format: get().exportFormat, path });
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
