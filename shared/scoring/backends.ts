// The one list of scoring-server backends: the protocols a score job can read log-probs from instead of
// this machine. The CLI's --backend choices and help, the API's zod enum, the saved settings' schema and
// the Studio's texts are read from here; the engine adds one client per id
// (electron/engine/scoring/remote/client.ts createClient). A new backend is one entry here plus its client.
export interface ScoringBackend<Id extends string = string> {
  id: Id;
  /** Who makes the server, as the Studio names it ("llama.cpp"). */
  project: string;
  /** The server program, as typed on a shell. */
  program: string;
  /** How to start one server for a job (the check's hint). */
  start: string;
  /** The same with a served-model alias and more slots (the Studio's hint). */
  startAliased: string;
}

export const SCORING_BACKENDS = [
  {
    id: 'llama-server',
    project: 'llama.cpp',
    program: 'llama-server',
    start: 'llama-server -m model.gguf --parallel 2 --port 8080',
    startAliased: 'llama-server -m model.gguf --alias NAME --parallel 4 --port 8080',
  },
  {
    id: 'vllm',
    project: 'vLLM',
    program: 'vllm serve',
    start: 'vllm serve MODEL_DIR --port 8000',
    startAliased: 'vllm serve MODEL_DIR --served-model-name NAME --port 8000',
  },
] as const satisfies readonly ScoringBackend[];

export type ScoringServerBackend = (typeof SCORING_BACKENDS)[number]['id'];

/** The ids, in registry order, as zod's enum wants them (at least one). */
export const SCORING_SERVER_BACKENDS = SCORING_BACKENDS.map((b) => b.id) as [ScoringServerBackend, ...ScoringServerBackend[]];

/** The backend a setting without one, or a hint naming one, means. */
export const DEFAULT_SCORING_BACKEND: ScoringBackend<ScoringServerBackend> = SCORING_BACKENDS[0];

export function scoringBackend(id: ScoringServerBackend): ScoringBackend<ScoringServerBackend> {
  return SCORING_BACKENDS.find((b) => b.id === id) ?? DEFAULT_SCORING_BACKEND;
}
