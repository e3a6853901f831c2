// The budget view: curves against K for the top-K space — the additive surrogate F̂ (always), measured
// fitting accuracy and prompt tokens (where a sweep ran), tool-definition tokens, baselines. With the
// three states (docs/spaces.md) a top-K space pins the top K and defers the task's other ranked tools;
// a deferred tool reaches a Chat Completions upstream demoted (name and one line, no schema:
// shared/export/formats.ts), so each tool's demoted cost is given beside its full one.
import { toOpenAITools } from '../../../shared/export/formats';
import { fullContextLikelihood, surrogateCurve } from '../../../shared/lots/surrogate';
import { sweepWithoutEvidence } from '../../../shared/lots/budget';
import type { BudgetData, BudgetPoint } from '../../../shared/api/types';
import type { SweepResult } from '../../../shared/project/sweeps';
import type { ToolDef } from '../../../shared/trace/schema';
import type { TaskData } from '../read-model/project-index';
import { ownValue } from '../../../shared/trace/own-record';
import { sweepBudget } from '../read-model/sweep-budget';

/** Without the scoring model's tokenizer at hand, ~4 characters of JSON per token (stated in the UI). */
export function estimateSchemaTokens(def: ToolDef): number {
  return Math.ceil(JSON.stringify({ type: 'function', function: def }).length / 4);
}

/** The same estimate for the tool's demoted form (the one the gateway and the Chat Completions export send). */
export function estimateDemotedTokens(def: ToolDef): number {
  return Math.ceil(JSON.stringify(toOpenAITools({ pinned: [], deferred: [def] })[0]).length / 4);
}

export function buildBudget(data: TaskData, sweep: SweepResult | undefined): BudgetData {
  const ranking = (data.fit?.ranking ?? []).map((r) => ({ tool: r.tool, mean: r.mean }));
  // Keyed by tool names: no prototype, so "__proto__" or "constructor" is just another tool.
  const toolSchemaTokens = Object.create(null) as Record<string, number>;
  const toolDemotedTokens = Object.create(null) as Record<string, number>;
  for (const [name, def] of data.menu) {
    toolSchemaTokens[name] = estimateSchemaTokens(def);
    toolDemotedTokens[name] = estimateDemotedTokens(def);
  }
  // The demoted cost of the ranked tools after position K, for every K (the proposal defers them).
  const demotedAfter: number[] = new Array<number>(ranking.length + 1).fill(0);
  for (let i = ranking.length - 1; i >= 0; i--) demotedAfter[i] = demotedAfter[i + 1]! + (ownValue(toolDemotedTokens, ranking[i]!.tool) ?? 0);
  const full = fullContextLikelihood(data.rows);
  const byK = new Map((sweep?.points ?? []).map((p) => [p.k, p]));
  let cumulative = 0;
  const points: BudgetPoint[] = surrogateCurve(ranking, full ?? 0).map((s) => {
    if (s.k > 0) cumulative += ownValue(toolSchemaTokens, ranking[s.k - 1]!.tool) ?? 0;
    const measured = byK.get(s.k);
    return {
      k: s.k,
      surrogate: s.value,
      accuracy: measured?.accuracy ?? null,
      n: measured?.n ?? null,
      promptTokens: measured?.promptTokens ?? null,
      // Always the same estimate as the keep-all line and the per-tool costs (the sweep's measured
      // cost is its prompt tokens per request, shown as its own curve).
      schemaTokens: cumulative,
      deferredTokens: demotedAfter[s.k] ?? 0,
    };
  });
  const menuSchemaTokens = Object.values(toolSchemaTokens).reduce((a, b) => a + b, 0);

  let recommendedK: number | null = null;
  let recommendedBy: BudgetData['recommendedBy'] = null;
  // F̂ grows while Ī > 0: its maximiser keeps every tool with positive evidence (at least one tool).
  const surrogateK = ranking.length > 0 ? Math.max(1, ranking.filter((r) => r.mean > 0).length) : null;
  const fromSweep = sweep ? sweepBudget(sweep) : undefined;
  if (fromSweep !== undefined) {
    recommendedK = fromSweep;
    recommendedBy = 'sweep';
  } else if (surrogateK !== null) {
    recommendedK = surrogateK;
    recommendedBy = 'surrogate';
  }

  return {
    task: data.task,
    run: data.run,
    ranking,
    points,
    fullValue: full ?? null,
    toolSchemaTokens,
    toolDemotedTokens,
    schemaTokensEstimated: true,
    menuSize: data.menu.size,
    menuSchemaTokens,
    sweep: sweep ? { model: sweep.model, createdAt: sweep.createdAt, bestK: fromSweep ?? null, withoutEvidence: sweepWithoutEvidence(sweep.points) } : null,
    baselines: sweep?.baselines ?? [],
    recommendedK,
    recommendedBy,
    surrogateK,
  };
}
