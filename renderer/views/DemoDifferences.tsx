// "Where they differ" on the Demo view (issue 40): the evaluation requests LOTS answered right and
// keep-all did not, and the reverse, side by side — the difference itself, not only its size — each one
// click from its trace. The trace holds the request as the benchmark recorded it under the whole
// registry; the LOTS space it was served under is named on the item.
import { useState } from 'react';
import type { DemoData, DemoDifference } from '../../shared/api';
import { useStudio } from '../store/react';

const SHOWN = 6;

export function DemoDifferences({ data }: { data: DemoData }) {
  const diffs = data.differences;
  if (!diffs || diffs.length === 0) return null;
  const won = diffs.filter((d) => d.lotsRight);
  const lost = diffs.filter((d) => !d.lotsRight);
  const kept = new Map(data.tasks.map((t) => [t.task, t.kept]));
  return (
    <div className="card" style={{ marginTop: 14 }} data-testid="demo-differences">
      <div className="card-head">
        <h2>Where they differ</h2>
        <span className="small muted">evaluation requests one menu got right and the other wrong · open one to see its trace</span>
      </div>
      <div className="grid-2">
        <DiffList title={`LOTS right, keep-all wrong (${won.length})`} items={won} kept={kept} testId="demo-lots-only" />
        <DiffList title={`Keep-all right, LOTS wrong (${lost.length})`} items={lost} kept={kept} testId="demo-all-only" />
      </div>
    </div>
  );
}

function DiffList({ title, items, kept, testId }: { title: string; items: DemoDifference[]; kept: Map<string, string[]>; testId: string }) {
  const [all, setAll] = useState(false);
  const openTrace = useStudio((s) => s.openTrace);
  const setTask = useStudio((s) => s.setTask);
  const shown = all ? items : items.slice(0, SHOWN);
  return (
    <section data-testid={testId}>
      <h3 className="small">{title}</h3>
      {items.length === 0 ? (
        <p className="muted small">None.</p>
      ) : (
        <ul className="diff-list">
          {shown.map((d) => (
            <li key={d.request}>
              <button
                className="diff-item"
                onClick={() => {
                  setTask(d.task);
                  void openTrace(d.request);
                }}
                aria-label={`Open the trace of ${d.request}`}
              >
                <span className="pill">{d.task}</span> <span className="diff-text">{d.text ?? d.request}</span>
              </button>
              <div className="muted tiny">
                LOTS served {(kept.get(d.task) ?? []).join(', ') || 'no tool'} ({d.lotsTokens} prompt tokens) · keep-all {d.allTokens} prompt tokens
              </div>
            </li>
          ))}
        </ul>
      )}
      {items.length > SHOWN && (
        <button className="btn small" onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${items.length}`}
        </button>
      )}
    </section>
  );
}
