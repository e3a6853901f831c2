// The trace inspector: request, menu, every call and observation, the frozen answer with its scored
// tokens; pick a tool to see which evidence its intervention removes and the per-token log-prob change.
import { useEffect } from 'react';
import type { StoredScore } from '../../shared/project/scores';
import { Empty } from '../components/Empty';
import { useStudio } from '../store/react';
import { TraceBody } from './trace/TraceBody';

export function TraceView() {
  const detail = useStudio((s) => s.traceDetail);
  const loading = useStudio((s) => s.traceLoading);
  const routeTrace = useStudio((s) => s.route.trace);
  const tool = useStudio((s) => s.traceTool);
  const turnIndex = useStudio((s) => s.traceTurn);
  const selectTool = useStudio((s) => s.selectTraceTool);
  const selectTurn = useStudio((s) => s.selectTraceTurn);
  const openTrace = useStudio((s) => s.openTrace);
  const routeTool = useStudio((s) => s.route.tool);
  const runPref = useStudio((s) => (s.route.task ? s.runByTask[s.route.task] : undefined));
  const navigate = useStudio((s) => s.navigate);

  // A reload lands here with only the id in the URL.
  useEffect(() => {
    if (!detail && routeTrace && !loading) void openTrace(routeTrace, routeTool ?? null);
  }, [detail, routeTrace, routeTool, loading, openTrace]);
  if (!detail) {
    return loading ? (
      <p className="muted">Opening the trace…</p>
    ) : (
      <Empty
        title="No trace open"
        actions={
          <button className="btn" onClick={() => navigate({ view: 'heatmap' })}>
            Go to the heatmap
          </button>
        }
      >
        Click a cell (or a request) in the heatmap to inspect that trace.
      </Empty>
    );
  }
  const { trace } = detail;
  const score = pickScore(detail.scores, runPref);
  const turn = Math.min(turnIndex, trace.turns.length - 1);
  return <TraceBody trace={trace} score={score} turn={turn} tool={tool} onTool={selectTool} onTurn={selectTurn} />;
}

function pickScore(scores: StoredScore[], run: string | undefined): StoredScore | null {
  if (scores.length === 0) return null;
  return (run ? scores.find((s) => s.run === run) : undefined) ?? scores[scores.length - 1]!;
}
