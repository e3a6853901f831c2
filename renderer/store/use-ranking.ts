// The ranking at the draft's K: refetched when the data changes or K settles (the bootstrap runs in
// the engine, so a slider drag must not send a request per pixel).
import { useEffect, useState } from 'react';
import type { RankingData } from '../../shared/api';
import { useStudio, useStudioStore } from './react';

export function useRanking(task: string | undefined, k: number | undefined): RankingData | undefined {
  const entry = useStudio((s) => (task ? s.rankings[task] : undefined));
  const version = useStudio((s) => s.dataVersion);
  const store = useStudioStore();
  const [settledK, setSettledK] = useState(k);
  useEffect(() => {
    const t = setTimeout(() => setSettledK(k), 250);
    return () => clearTimeout(t);
  }, [k]);
  useEffect(() => {
    if (!task) return;
    const stale = !entry || entry.version !== version || (settledK !== undefined && entry.value.k !== Math.min(settledK, entry.value.rows.length));
    if (stale) void store.getState().loadRanking(task, settledK);
  }, [task, version, settledK, entry, store]);
  return entry?.value;
}
