// The import flow's task labels through the engine's API (issue 38, item 6): an import names the traces
// that arrived without a task and the field their records seem to carry; `taskField` reads it; and
// `routeTraces` (the use case of `lots route`) gives the others tasks, once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StudioService } from '../../../electron/engine/api';

function service(): StudioService {
  return new StudioService({ transport: 'web', configDir: mkdtempSync(join(tmpdir(), 'lots-cfg-')) });
}

const TOPICS: Record<string, string[]> = {
  billing: ['refund my last invoice please', 'why was my invoice charged twice', 'send the invoice for march again'],
  weather: ['will it rain in lisbon tomorrow', 'weather forecast for porto this weekend', 'is it going to rain in madrid today'],
};

/** OpenAI chat records with the task in `metadata.task`, each with a call and its result. */
function records(): string {
  const lines: string[] = [];
  for (const [task, requests] of Object.entries(TOPICS))
    requests.forEach((request, i) =>
      lines.push(
        JSON.stringify({
          messages: [
            { role: 'user', content: request },
            { role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: `${task}_lookup`, arguments: '{}' } }] },
            { role: 'tool', tool_call_id: `c${i}`, content: `${task} result ${i}` },
            { role: 'assistant', content: `done ${i}` },
          ],
          metadata: { task },
        }),
      ),
    );
  return lines.join('\n') + '\n';
}

async function open(): Promise<StudioService> {
  const s = service();
  await s.createProject({ dir: join(mkdtempSync(join(tmpdir(), 'lots-route-')), 'p') });
  return s;
}

describe('import task field and routeTraces', () => {
  it('without the field: the report names the unlabelled traces and the field; routeTraces gives them tasks once', async () => {
    const s = await open();
    const report = await s.importTraces({ files: [{ name: 'runs.jsonl', text: records() }] });
    expect(report.files[0]).toMatchObject({ added: 6, unlabelled: 6, taskFieldGuess: 'metadata.task' });
    const routed = await s.routeTraces({ k: 2 });
    expect(routed.routed).toBe(6);
    expect(Object.values(routed.sizes).reduce((a, b) => a + b, 0)).toBe(6);
    expect(Object.keys(routed.sizes)).toHaveLength(2);
    expect(routed.project.tasks.map((t) => t.task).sort()).toEqual(Object.keys(routed.sizes).sort());
    // Routed requests keep their task: nothing is left to route.
    const again = await s.routeTraces(undefined);
    expect(again.routed).toBe(0);
    expect(again.project.tasks.map((t) => t.task).sort()).toEqual(Object.keys(routed.sizes).sort());
  });

  it('with the field: the tasks come from the records and nothing is left to route', async () => {
    const s = await open();
    const report = await s.importTraces({ files: [{ name: 'runs.jsonl', text: records() }], taskField: 'metadata.task' });
    expect(report.files[0]).toMatchObject({ added: 6 });
    expect(report.files[0]!.unlabelled ?? 0).toBe(0);
    expect(report.project.tasks.map((t) => t.task).sort()).toEqual(['billing', 'weather']);
    expect((await s.routeTraces({})).routed).toBe(0);
  });

  it('needs an open project', async () => {
    await expect(service().routeTraces({})).rejects.toMatchObject({ code: 'NO_PROJECT' });
  });
});
