// The engine's llama.cpp entry points: runtime per GPU choice, model inspection, loading, hashing.
export { GPU_CHOICES, getRuntime, gpuInfo } from './runtime';
export type { GpuChoice } from './runtime';
export { checkModelPath, describeModel, inspectModel, readModelHeader } from './model-file';
export { loadModel } from './load';
export type { LoadedModel, LoadModelOptions, ScoringContextOptions } from './load';
export { modelFileHash } from './hash';
