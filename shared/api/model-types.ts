// What the engine returns about models and scoring servers (the Models view): GPU and model facts, the
// recommended and pulled models, and the scoring-server settings with their checks. Plain JSON values,
// as every type of the API (types.ts).
import type { ScoringServerBackend } from '../scoring/backends';

export interface ModelFit {
  fits: boolean | null;
  gpuLayers: number | null;
  contextSize: number | null;
  ramBytes: number | null;
  vramBytes: number | null;
  note: string;
}

export interface ModelInfo {
  path: string;
  name: string;
  sizeBytes: number;
  architecture: string | null;
  contextLength: number | null;
  parameters: string | null;
  quantization: string | null;
  layers: number | null;
  vocabularySize: number | null;
  fit: ModelFit;
}

export interface GpuInfo {
  /** The GPU backend in use, or false for CPU only. */
  type: string | false;
  supported: string[];
  devices: string[];
  vramTotal: number | null;
  vramFree: number | null;
  /** How scoring reads a token's log-prob on this runtime: the fast read (one pass over the logits, the
   * patched binding of build/fast-scorer.mjs) or the prebuilt binding's confidence path; and why. */
  scoringRead: { path: 'fast read' | 'confidence'; why: string };
}

export interface RecommendedModel {
  /** A model source: pypi:PACKAGE, hf:USER/REPO:QUANT, https://…/x.gguf. */
  uri: string;
  name: string;
  sizeBytes: number | null;
  note: string;
  /** True for hf:/https: sources (they need the model hub); pypi: sources need only a package index. */
  needsHub: boolean;
  /** The default model of the tests and demos. */
  isDefault?: boolean;
}

/** A GGUF in the models folder (lots models list). */
export interface PulledModel {
  path: string;
  file: string;
  sizeBytes: number;
  architecture: string | null;
  name: string | null;
  contextLength: number | null;
  chatTemplate: string | null;
  /** Whether its rendering thinks (paper B.2 scores with thinking off): 'none' (the format has no thinking),
   * 'off' (turned off), 'cannot' (no off switch); with how, or why not. Null without a chat template. */
  thinking: { state: 'none' | 'off' | 'cannot'; note: string } | null;
  source: string | null;
  sha256: string | null;
  /** An embedding model (a sentence encoder: its GGUF declares a pooling), with its vector width and pooling;
   * absent for a generative model or an unreadable file. */
  embedding?: { dimensions: number; pooling: 'mean' | 'cls' | 'last' | 'rank' };
}

export interface ModelsState {
  recent: { path: string; name: string; usedAt: string }[];
  recommended: RecommendedModel[];
  /** Models already in the models folder. */
  pulled: PulledModel[];
  network: { online: boolean; detail: string };
  downloadDir: string;
}

/**
 * The scoring server(s) a score job started in the Studio can use instead of this machine, kept per user
 * in the config folder (scoring-server.json): where servers run is the user's setup, not the project's
 * data, and every score row names the served model in its run key anyway.
 */
export interface ScoringServerSettings {
  backend: ScoringServerBackend;
  /** Normalized base URLs (http://host:port), in the order given; a job shards its traces across them. */
  endpoints: string[];
  /** The environment variable (of the engine's process) that holds the API key, sent as a bearer token. */
  apiKeyEnv?: string;
  /** The model name every endpoint must report serving. */
  servedModel?: string;
}

/** What one endpoint answered to a check. */
export interface ScoringEndpointCheck {
  endpoint: string;
  /** It answered /v1/models, /props and /tokenize as the backend's protocol says. */
  reachable: boolean;
  /** The served model's name (from /v1/models), once it answered. */
  model: string | null;
  /** The model part of the run key its scores would carry: backend:name@revision (revision: a hash of what the server reports about the weights). */
  identity: string | null;
  /** Requests it decodes at once (its slots), when it reports them (/props total_slots). */
  slots: number | null;
  contextSize: number | null;
  build: string | null;
  /** Tokens its /tokenize gave for a probe text; null when that was not reached. */
  probeTokens: number | null;
  /** The check's round trips, in milliseconds. */
  ms: number;
  error: { code: string; message: string } | null;
}

export interface ScoringServerCheck {
  settings: ScoringServerSettings;
  checkedAt: string;
  endpoints: ScoringEndpointCheck[];
  /** The identity every reachable endpoint shares (what a job's run key would start with); null when none answered or they differ. */
  identity: string | null;
  /** Why a job could not score on these servers now (none reachable, different models), or null. */
  problem: string | null;
}

export interface ScoringServerState {
  /** The saved settings, or null when none are set (scoring then runs on this machine only). */
  settings: ScoringServerSettings | null;
  /** The last check of these settings in this session, or null. */
  lastCheck: ScoringServerCheck | null;
  /** The file the settings are kept in. */
  file: string;
}
