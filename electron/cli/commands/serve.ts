// `lots serve`: a local model answers a benchmark project's requests (greedy), graded against gold.
import { choice, flagList, requireFlag } from '../args';
import { EXIT_OK, EXIT_PARTIAL, type Command, type CliIO } from '../command';
import { replayCauses, replayServed, serveProject, type ReplayResult, type ServeMenu, type ServeSplit } from '../../engine/benchmark/serve-project';
import { ProjectStore } from '../../engine/store';
import { modelFlags, openServer } from '../bench-flags';
import { progressReporter } from '../stage-progress';
import { formatFixed } from '../../../shared/text';

export const command: Command = {
  name: 'serve',
  summary: "answer a benchmark project's requests with a local model (greedy) and grade them",
  usage: 'lots serve --project <dir> --model <gguf> [--split fit|eval|all] [--menu registry|space] [--task t] [--replay] [--gpu auto|cpu|…]',
  flags: {
    project: { type: 'string', description: 'a project made by `lots bench make`' },
    ...modelFlags(),
    split: { type: 'string', description: 'fit | eval | all', default: 'fit' },
    menu: { type: 'string', description: "registry (each request's full menu) or space (its task's current accepted space)", default: 'registry' },
    task: { type: 'string', multi: true, description: 'only these tasks (repeat or comma-separate)' },
    replay: {
      type: 'boolean',
      description: 'serve the replies this model already gave again and compare them byte for byte (nothing is written): does this machine reproduce the run?',
    },
  },
  details: [
    'Each request is executed under its menu (one "<Tool>: <output>" line per served tool), rendered with',
    "the model's chat template (or the plain transcript when it has none), and answered greedily. The",
    'served trace (answer, correct, prompt tokens) is added to the project with the id',
    '"<request>@<model hash>"; a request already served the same way is skipped.',
    '',
    "Grading: the answer's first number-like span must be within max(0.01, 0.1% of the gold value).",
    '',
    '--replay serves the stored replies of this model again, the same requests under the same menus, with',
    "the model flags given (use the run's own --max-tokens), and prints how many came back byte for byte,",
    'each changed reply (stored, then served again) and the right answers both ways. Greedy decoding should',
    'give the same reply; one that changes says this machine, engine or settings do not reproduce the run.',
    '',
    'Next: score the served traces with --intervention reexecute, then `lots sweep`.',
    'Exit codes: 0 ok (--replay: every reply the same); 1 --replay found a changed reply; 2 usage error, no',
    'benchmark requests, or a model that cannot be loaded.',
  ].join('\n'),
  async run(args, io) {
    const store = ProjectStore.open(requireFlag(args, 'project'));
    const split = choice<ServeSplit>(args, 'split', ['fit', 'eval', 'all']);
    const menu = choice<ServeMenu>(args, 'menu', ['registry', 'space']);
    const server = await openServer(args);
    try {
      if (args.flags.replay) {
        const replay = await replayServed(store, server, { split, menu, tasks: flagList(args, 'task'), onProgress: progressReporter(io, 'replay') });
        printReplay(io, replay, server.modelName);
        return replay.changed.length > 0 ? EXIT_PARTIAL : EXIT_OK;
      }
      const result = await serveProject(store, server, { split, menu, tasks: flagList(args, 'task'), onProgress: progressReporter(io, 'serve') });
      io.out(`served ${result.traces.length} requests with ${server.modelName} (${result.written} new, ${result.skipped} already served)`);
      io.out(formatServeTable(result.byTask));
    } finally {
      await server.close();
    }
    return EXIT_OK;
  },
};

export function formatServeTable(rows: ReadonlyArray<{ task: string; served: number; correct: number; promptTokens: number }>): string {
  const lines = rows.map(
    (r) =>
      `  ${r.task.padEnd(16)} ${String(r.served).padStart(5)} served  accuracy ${formatFixed(r.served ? r.correct / r.served : 0)}  ${Math.round(r.promptTokens)} prompt tokens/request`,
  );
  return lines.join('\n');
}

function printReplay(io: CliIO, r: ReplayResult, model: string): void {
  const one = (text: string) => JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text);
  if (r.replayed === 0) {
    io.out(`nothing to replay: none of the ${r.notServed} requests has a stored reply of ${model}; serve them first (lots serve without --replay)`);
    return;
  }
  io.out(
    `replayed ${r.replayed} stored replies of ${model}: ${r.same} byte for byte, ${r.changed.length} changed; right ${r.storedCorrect} as stored, ${r.freshCorrect} served again`,
  );
  for (const c of r.changed) {
    io.out(`  ${c.id} (${c.task})`);
    io.out(`    stored: ${one(c.stored)}${c.storedCorrect ? ' (right)' : ''}`);
    io.out(`    now:    ${one(c.fresh)}${c.freshCorrect ? ' (right)' : ''}`);
  }
  if (r.notServed > 0) io.out(`${r.notServed} requests have no stored reply of this model: not compared`);
  for (const line of replayCauses(r.changed)) io.out(line);
}
