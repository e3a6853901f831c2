// The ranking at the draft's K: refetched when the data changes or K settles (the bootstrap runs in
// the engine, so a slider drag must not send a request per pixel).
import { useEffect, useState } from 'react';
import type { RankingData } from '../../shared/api';
import { useTaskView } from './react';

export function useRanking(task: string | undefined, k: number | undefined): RankingData | undefined {
  const [settledK, setSettledK] = useState(k);
  useEffect(() => {
    const t = setTimeout(() => setSettledK(k), 250);
    return () => clearTimeout(t);
  }, [k]);
  return useTaskView('rankings', task, {
    arg: settledK,
    isCurrent: (value) => settledK === undefined || value.k === Math.min(settledK, value.rows.length),
  });
}
