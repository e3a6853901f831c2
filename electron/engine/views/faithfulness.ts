// The faithfulness check as the Ranking view sees it: the stored points of the ranking's run, marked
// stale when the ranking moved since (more requests scored, another top-k). The job that measures more
// of them is built in usecases/faithfulness.ts.
import type { FaithfulnessPoint } from '../../../shared/api/types';
import type { TaskFaithfulness } from '../../../shared/project/faithfulness';
import type { TaskData } from '../read-model/project-index';

export function faithfulnessPoints(record: TaskFaithfulness, data: TaskData): FaithfulnessPoint[] {
  const check = data.run ? record.checks.find((c) => c.run === data.run) : undefined;
  if (!check || !data.fit) return [];
  const ranking = data.fit.ranking.map((r) => r.tool);
  return check.points.map((p) => ({
    k: p.k,
    drop: p.joint,
    additive: p.additive,
    random: p.random,
    draws: p.draws,
    beatsRandom: p.beatsRandom,
    n: p.n,
    tools: p.tools,
    stale: p.rows !== data.rows.length || p.tools.join('\u0000') !== ranking.slice(0, p.k).join('\u0000'),
    createdAt: p.createdAt,
  }));
}
