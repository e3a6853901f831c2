// The History view's timeline: the running score per tool after each batch, with entries and exits marked.
import { useMemo } from 'react';
import type { Crossing, TaskUpdates, UpdateBatch } from '../../../shared/project/updates';
import { fmtPercent, fmtSigned, fmtTime } from '../../format';
import { toolsOf } from './tools-of';

function crossingText(c: Crossing, how: 'entered' | 'left', batch: number): string {
  const s = `running ${fmtSigned(c.running)}`;
  if (c.support !== undefined)
    return `${c.tool} ${how} at batch ${batch}: ${s}, running support ${fmtPercent(c.support)} ${how === 'entered' ? '≥' : '<'} φ ${c.cut}`;
  if (c.cut === null) return `${c.tool} ${how} at batch ${batch}: ${s} (the space had room for every scored tool)`;
  return `${c.tool} ${how} at batch ${batch}: ${s} ${how === 'entered' ? '≥' : '≤'} the cut ${fmtSigned(c.cut)}`;
}

export function TimelineCard({ updates }: { updates: TaskUpdates }) {
  const tools = useMemo(() => toolsOf(updates), [updates]);
  const max = useMemo(() => Math.max(1e-9, ...updates.batches.flatMap((b) => Object.values(b.running).map(Math.abs))), [updates]);
  const hasAccuracy = updates.batches.some((b) => b.accuracy !== undefined);
  return (
    <div className="card">
      <div className="card-head">
        <h2>Space along the batches</h2>
        <span className="sub">
          running score per tool after each batch · outlined: in the proposal · ▲ entered · ▼ left
          {updates.batches.some((b) => b.calledWhileDeferred) ? ' · ◇ called while deferred · ★ promoted (called while deferred, now pinned)' : ''}
        </span>
      </div>
      <div className="timeline-scroll">
        <table className="timeline" data-testid="history-timeline">
          <thead>
            <tr>
              <th scope="col">tool</th>
              {updates.batches.map((b) => (
                <th
                  key={b.batch}
                  scope="col"
                  title={`${b.source}${b.label ? ` (${b.label})` : ''}: ${b.scored} of ${b.traces} traces scored, folded ${fmtTime(b.at)}`}
                >
                  <div>batch {b.batch}</div>
                  <div className="tiny muted">{b.label ?? b.source}</div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {tools.map((tool) => (
              <tr key={tool} data-tool={tool}>
                <th scope="row" className="mono">
                  {tool}
                </th>
                {updates.batches.map((b) => (
                  <TimelineCell key={b.batch} tool={tool} batch={b} max={max} />
                ))}
              </tr>
            ))}
            {hasAccuracy && (
              <tr className="timeline-accuracy">
                <th scope="row">accuracy</th>
                {updates.batches.map((b) => (
                  <td key={b.batch} className="tabular">
                    {b.accuracy === undefined ? '—' : fmtPercent(b.accuracy)}
                  </td>
                ))}
              </tr>
            )}
            <tr className="timeline-size">
              <th scope="row">tools kept</th>
              {updates.batches.map((b) => (
                <td key={b.batch} className="tabular">
                  {b.proposed.length}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
    </div>
  );
}

function TimelineCell({ tool, batch, max }: { tool: string; batch: UpdateBatch; max: number }) {
  const running = batch.running[tool];
  const inSpace = batch.proposed.includes(tool);
  const entered = batch.entered.find((c) => c.tool === tool);
  const left = batch.left.find((c) => c.tool === tool);
  if (running === undefined)
    return (
      <td className="muted tiny" title={`${tool} had no score yet at batch ${batch.batch}`}>
        —
      </td>
    );
  const share = Math.round(Math.min(1, Math.abs(running) / max) * 60);
  const color = running >= 0 ? 'var(--pos)' : 'var(--neg)';
  const scored = batch.batchMeans[tool];
  const calls = batch.calledWhileDeferred?.[tool];
  const promoted = batch.promoted?.includes(tool) === true;
  const title = [
    ...(promoted
      ? [`${tool} promoted at batch ${batch.batch}: called while deferred in ${calls} trace${calls === 1 ? '' : 's'}, and the rule now pins it`]
      : calls
        ? [`${tool} called while deferred in ${calls} trace${calls === 1 ? '' : 's'} of batch ${batch.batch}; the rule keeps it deferred`]
        : []),
    entered
      ? crossingText(entered, 'entered', batch.batch)
      : left
        ? crossingText(left, 'left', batch.batch)
        : `${tool} after batch ${batch.batch}: running ${fmtSigned(running)}${inSpace ? ', in the proposal' : ''}`,
    scored === undefined ? 'not scored by this batch (its running score is kept)' : `batch mean ${fmtSigned(scored)}`,
  ].join('\n');
  return (
    <td
      className={`timeline-cell tabular${inSpace ? ' in' : ''}`}
      style={{ background: `color-mix(in srgb, ${color} ${share}%, transparent)` }}
      title={title}
      data-in={inSpace ? 'yes' : 'no'}
      data-change={entered ? 'entered' : left ? 'left' : undefined}
    >
      {entered && (
        <span className="mark good" aria-label="entered">
          ▲
        </span>
      )}
      {left && (
        <span className="mark bad" aria-label="left">
          ▼
        </span>
      )}
      {promoted ? (
        <span className="mark good" aria-label="promoted">
          ★
        </span>
      ) : calls ? (
        <span className="mark" aria-label="called while deferred">
          ◇
        </span>
      ) : null}
      {fmtSigned(running, 2)}
    </td>
  );
}
