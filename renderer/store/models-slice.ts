// The scoring model: the chosen GGUF, what it is and whether it fits, the GPU, downloads.
import type { GpuInfo, ModelInfo, ModelsState, StudioApi } from '../../shared/api';
import type { SliceCreator } from './types';

export interface ModelsSlice {
  models: ModelsState | null;
  gpu: GpuInfo | null;
  modelPath: string;
  modelInfo: ModelInfo | null;
  modelBusy: boolean;
  loadModels(): Promise<void>;
  setModelPath(path: string): void;
  inspectModel(path?: string): Promise<ModelInfo | null>;
  useReferenceModel(): Promise<string | null>;
  downloadModel(uri: string): Promise<void>;
}

export const createModelsSlice =
  (api: StudioApi): SliceCreator<ModelsSlice> =>
  (set, get) => ({
    models: null,
    gpu: null,
    modelPath: '',
    modelInfo: null,
    modelBusy: false,

    async loadModels() {
      try {
        const [models, gpu] = await Promise.all([api.getModels(), api.getGpuInfo()]);
        set({ models, gpu }, false, 'models/load');
        if (!get().modelPath && models.recent[0]) set({ modelPath: models.recent[0].path }, false, 'models/default');
      } catch (e) {
        get().fail(e, 'Cannot read the model settings');
      }
    },

    setModelPath(modelPath) {
      set({ modelPath, modelInfo: get().modelInfo?.path === modelPath ? get().modelInfo : null }, false, 'models/path');
    },

    async inspectModel(path) {
      const target = (path ?? get().modelPath).trim();
      if (!target) return null;
      set({ modelBusy: true, modelPath: target }, false, 'models/inspect-start');
      try {
        const modelInfo = await api.inspectModel({ path: target });
        set({ modelInfo, modelBusy: false }, false, 'models/inspect');
        void get().loadModels();
        return modelInfo;
      } catch (e) {
        set({ modelBusy: false, modelInfo: null }, false, 'models/inspect-failed');
        get().fail(e, 'Cannot read the model');
        return null;
      }
    },

    async useReferenceModel() {
      set({ modelBusy: true }, false, 'models/reference-start');
      try {
        const ref = await api.prepareReferenceModel();
        set({ modelPath: ref.path, modelBusy: false }, false, 'models/reference');
        await get().inspectModel(ref.path);
        return ref.path;
      } catch (e) {
        set({ modelBusy: false }, false, 'models/reference-failed');
        get().fail(e, 'Cannot prepare the reference model');
        return null;
      }
    },

    async downloadModel(uri) {
      try {
        get().upsertJob(await api.downloadModel({ uri }));
      } catch (e) {
        get().fail(e, 'The download did not start');
      }
    },
  });
