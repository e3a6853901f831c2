// The benchmark's compact prompt (TGB's style: a one-line menu entry per tool, inline in the system
// message) against the verbose one (every description and JSON schema as chat-template functions).
import { describe, expect, it } from 'vitest';
import { generateBenchmark } from '../../../shared/benchmark/generate';
import { BENCH_SYSTEM, BENCH_SYSTEM_COMPACT, buildBenchTrace, readBenchMeta } from '../../../shared/benchmark/trace';
import { instantiate } from '../../../shared/benchmark/instance';
import { inlineMenuText, menuIsInline, systemWithInlineMenu } from '../../../shared/trace/render-hints';

describe('compact benchmark prompt', () => {
  it('is the default: names with a few words each, no parameter schemas, the menu rendered inline', () => {
    const [trace] = generateBenchmark({ families: ['fx_settle'], fit: 1, eval: 0 });
    expect(readBenchMeta(trace!).prompt).toBe('compact');
    expect(menuIsInline(trace!)).toBe(true);
    expect(trace!.system).toBe(BENCH_SYSTEM_COMPACT);
    expect(trace!.tools).toHaveLength(15);
    for (const tool of trace!.tools) {
      expect(tool.parameters).toBeUndefined();
      expect(tool.description!.split(/\s+/).length).toBeLessThanOrEqual(7);
    }
    expect(inlineMenuText(trace!).split('\n')[0]).toBe('- Barcode: decodes an EAN-13 barcode');
    expect(systemWithInlineMenu(trace!).startsWith(`${BENCH_SYSTEM_COMPACT}\n\nTools:\n- Barcode:`)).toBe(true);
  });

  it('keeps the verbose rendering as an option, with full definitions through the chat template', () => {
    const [trace] = generateBenchmark({ families: ['fx_settle'], fit: 1, eval: 0, prompt: 'verbose' });
    expect(readBenchMeta(trace!).prompt).toBe('verbose');
    expect(menuIsInline(trace!)).toBe(false);
    expect(trace!.system).toBe(BENCH_SYSTEM);
    expect(trace!.tools.every((t) => t.parameters !== undefined)).toBe(true);
  });

  it('the same request keeps its tool lines under either prompt (only the menu text differs)', () => {
    const instance = instantiate('0', 'table_total', 3);
    const menu = ['TableQuery', 'Calculator', 'Barcode'];
    const compact = buildBenchTrace(instance, { menu, registry: 15, split: 'fit' });
    const verbose = buildBenchTrace(instance, { menu, registry: 15, split: 'fit', prompt: 'verbose' });
    expect(compact.turns).toEqual(verbose.turns);
    expect(compact.id).toBe(verbose.id);
  });
});
