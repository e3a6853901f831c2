// What LOTS's selection cost for one task (paper Table 20 "LOTS selection counts likelihood scoring"):
// the tokens teacher-forced while scoring the task's fitting traces — each trace's full context and
// one context per removed tool, every token counted as the paper counts input tokens (the prefix the
// KV cache shares is not subtracted) — plus the budget sweep's serving of the fitting requests.
import { benchExecutor } from '../../../shared/benchmark/trace';
import { parseRunKey, type ScoreSpan } from '../../../shared/project/scores';
import type { SweepResult } from '../../../shared/project/sweeps';
import type { SelectionCost } from '../../../shared/selection/method';
import type { InterventionKind } from '../../../shared/trace/interventions';
import { planTrace } from '../scoring/plan';
import type { ProjectStore } from '../store/project-store';
import type { BenchServer } from './server';

export async function lotsSelectionCost(store: ProjectStore, server: BenchServer, task: string, sweep: SweepResult): Promise<SelectionCost | undefined> {
  const parts = sweep.run ? parseRunKey(sweep.run) : null;
  if (!sweep.run || !parts) return undefined;
  let scoringTokens = 0;
  let contexts = 0;
  for (const row of store.listScores(sweep.run)) {
    if (row.task !== task) continue;
    const trace = store.getTrace(row.trace);
    if (!trace) continue;
    const plan = await planTrace(trace, server.renderer, {
      intervention: parts.intervention as InterventionKind,
      span: parts.span as ScoreSpan,
      executor: benchExecutor,
    });
    for (const turn of plan.turns) {
      scoringTokens += turn.base.tokens.length;
      contexts++;
      for (const i of turn.interventions) {
        scoringTokens += i.sequence.tokens.length;
        contexts++;
      }
    }
  }
  const sweepTokens = sweep.points.reduce((a, p) => a + p.promptTokens * p.n, 0);
  const sweepRequests = sweep.points.reduce((a, p) => a + p.n, 0);
  return {
    per: 'fit',
    promptTokens: Math.round(scoringTokens + sweepTokens),
    calls: contexts + sweepRequests,
  };
}
