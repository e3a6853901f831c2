// The engine's llama.cpp entry points: runtime per GPU choice, model inspection, loading, hashing.
export { GPU_CHOICES, getRuntime, gpuInfo, takeRecentLlamaLog } from './runtime';
export type { GpuChoice } from './runtime';
export { checkModelPath, describeModel, estimateFit, formatBytes, inspectModel, readModelHeader } from './model-file';
export { createScoringContext, loadModel } from './load';
export type { LoadedModel, LoadModelOptions, ScoringContextOptions } from './load';
export { modelFileHash } from './hash';
export { oneOutputSequencePerBatch } from './batching';
