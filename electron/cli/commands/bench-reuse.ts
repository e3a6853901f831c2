// `lots bench reuse`: serve each task's space fitted with one model by another model (paper C.1).
import { choice, flagList, requireFlag } from '../args';
import { EXIT_OK, type Command } from '../command';
import { alignColumns } from '../../../shared/benchmark/comparison-table';
import { ProjectStore } from '../../engine/store';
import { evaluateReuse, type ReuseRow } from '../../engine/benchmark/reuse';
import { BenchServer } from '../../engine/benchmark/server';
import { ensureModel } from '../real-model';
import { modelFlags, serverOptions } from '../bench-flags';

export const command: Command = {
  name: 'bench reuse',
  summary: "serve each task's space, fitted with one model, with another model: reused space against keep-all",
  usage: 'lots bench reuse --project <dir> --model <B> [--task t] [--split eval|fit] [--json]',
  flags: {
    project: { type: 'string', description: 'a benchmark project whose spaces were fitted with another model (e.g. made by `lots demo`)' },
    ...modelFlags(),
    model: { type: 'string', description: 'the serving model B (a GGUF file, default, or a pulled source such as pypi:…)' },
    task: { type: 'string', multi: true, description: 'only these tasks' },
    split: { type: 'string', description: 'requests to serve: eval (default) or fit', default: 'eval' },
    json: { type: 'boolean', description: 'print the rows as JSON' },
  },
  details: [
    "For each task: its latest approved space (else the budget sweep's LOTS space), fitted from model A's",
    'scores, and the whole registry, both served by model B on the same requests; accuracy and prompt',
    "tokens per request. Nothing is written to the project. To compare the two models' rankings of the",
    'same traces instead, score them with B (`lots score --model B`) and run `lots compare`.',
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const split = choice(args, 'split', ['eval', 'fit'] as const, 'eval');
    const modelPath = await ensureModel(requireFlag(args, 'model'), io, 'bench reuse');
    const server = await BenchServer.open(modelPath, serverOptions(args));
    try {
      const rows = await evaluateReuse(store, server, { tasks: flagList(args, 'task'), split });
      if (args.flags.json) io.data!(JSON.stringify({ model: server.modelName, split, tasks: rows }, null, 2));
      else io.out(formatReuse(rows, server.modelName, split));
      return EXIT_OK;
    } finally {
      await server.close();
    }
  },
};

export function formatReuse(rows: readonly ReuseRow[], model: string, split: string): string {
  const header = ['task', 'space (fitted with)', 'K', 'keep-all acc', 'reused acc', 'tokens keep-all/reused'];
  const body = rows.map((r) => [
    r.task,
    `${r.space.join(', ') || '(none)'} (${r.fittedWith ?? 'unknown'}, ${r.source})`,
    String(r.space.length),
    r.keepAll.accuracy.toFixed(2),
    r.reused.accuracy.toFixed(2),
    `${Math.round(r.keepAll.promptTokens)}/${Math.round(r.reused.promptTokens)}`,
  ]);
  const n = rows.reduce((a, r) => a + r.reused.n, 0);
  const mean = (f: (r: ReuseRow) => number) => rows.reduce((a, r) => a + f(r) * r.reused.n, 0) / Math.max(1, n);
  body.push([
    'mean',
    '',
    (rows.reduce((a, r) => a + r.space.length, 0) / rows.length).toFixed(1),
    mean((r) => r.keepAll.accuracy).toFixed(2),
    mean((r) => r.reused.accuracy).toFixed(2),
    `${Math.round(mean((r) => r.keepAll.promptTokens))}/${Math.round(mean((r) => r.reused.promptTokens))}`,
  ]);
  return [`served by ${model} on the ${split} requests (n = ${n}):`, ...alignColumns([header, ...body])].join('\n');
}
