// A task's space over time (paper §3, Appendix B.3, Figures 11 and 15): the update batches along the
// batch axis — which tools entered and left the proposal at which batch and why (their running score
// crossing the cut) — the running-score trajectories, accuracy per batch where measured, the approved
// versions, and for a benchmark stream every arm's accuracy and prompt tokens batch by batch. "Fold new
// batches" runs the update on the task's new scored imports; the proposal is approved on the Space view.
import { Empty } from '../components/Empty';
import { useStudio, useTaskView } from '../store/react';
import { ProposalCard } from './history/ProposalCard';
import { StreamCard } from './history/StreamCard';
import { TimelineCard } from './history/TimelineCard';
import { TrajectoryCard } from './history/TrajectoryCard';
import { UpdateCard } from './history/UpdateCard';
import { VersionsCard } from './history/VersionsCard';
export { LINE_DASHES } from './history/LineMarkers';

export function HistoryView() {
  const task = useStudio((s) => s.route.task);
  const history = useTaskView('histories', task);
  if (!task) return <Empty title="No task selected">Pick a task on the project view.</Empty>;
  if (!history) return <p className="muted">Loading the history of {task}…</p>;
  const updates = history.updates;
  return (
    <div className="history" data-testid="history-view">
      <UpdateCard history={history} />
      {updates && updates.batches.length > 0 && (
        <>
          <ProposalCard history={history} />
          <TimelineCard updates={updates} />
          <TrajectoryCard updates={updates} />
        </>
      )}
      {history.stream && <StreamCard stream={history.stream} />}
      <VersionsCard history={history} />
    </div>
  );
}
