// A task's space over time (paper §3, Appendix B.3, Figures 11 and 15): the update batches along the
// batch axis — which tools entered and left the proposal at which batch and why (their running score
// crossing the cut) — the running-score trajectories, accuracy per batch where measured, the approved
// versions, and for a benchmark stream every arm's accuracy and prompt tokens batch by batch. "Fold new
// batches" runs the update on the task's new scored imports; the proposal is approved on the Space view.
import { memo, useMemo, useState, type Key } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { HistoryData } from '../../shared/api';
import { diffSpaces } from '../../shared/project/spaces';
import { describeRule as describeSpaceRule } from '../../shared/export/space-report';
import { describeUpdateRule as describeRule, type Crossing, type TaskUpdates, type UpdateBatch } from '../../shared/project/updates';
import type { StreamArm } from '../../shared/project/streams';
import { Empty } from '../components/Empty';
import { runName } from '../components/run-name';
import { useViewOnly, VIEW_ONLY_REASON } from '../components/ViewOnly';
import { fmtInt, fmtPercent, fmtSigned, fmtTime } from '../format';
import { useStudio, useTaskView } from '../store/react';
import { useChartColors } from './chart-colors';

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

function UpdateCard({ history }: { history: HistoryData }) {
  const { task, updates, waiting, stream } = history;
  const folding = useStudio((s) => s.folding);
  const fold = useStudio((s) => s.foldBatches);
  const runs = useStudio((s) => s.project?.runs);
  const viewOnly = useViewOnly();
  const [alpha, setAlpha] = useState(String(updates?.alpha ?? 0.2));
  const [rule, setRule] = useState<'topk' | 'support'>(updates?.rule.kind ?? 'topk');
  const [k, setK] = useState(String(updates?.rule.kind === 'topk' ? updates.rule.k : (history.versions.at(-1)?.tools.length ?? 3)));
  const [phi, setPhi] = useState(String(updates?.rule.kind === 'support' ? updates.rule.phi : 0.05));
  const alphaN = Number(alpha);
  const kN = Number(k);
  const phiN = Number(phi);
  const valid = alphaN > 0 && alphaN <= 1 && (rule === 'topk' ? Number.isInteger(kN) && kN >= 1 : phiN >= 0 && phiN <= 1);
  return (
    <div className="card">
      <div className="card-head">
        <h2>Updates of {task}</h2>
        <span className="sub" data-testid="history-summary">
          {updates && updates.batches.length > 0
            ? `${updates.batches.length} batch${updates.batches.length === 1 ? '' : 'es'} folded · α = ${updates.alpha} · ${describeRule(updates.rule)} · run: ${runName(updates.run, runs)}`
            : 'no batch folded yet'}
        </span>
      </div>
      <p className="small text-2" style={{ marginTop: 0 }}>
        Each import of the task is a batch. A scored batch updates the running scores, Ĩ ← α·Ī + (1−α)·Ĩ (a tool a batch did not score keeps its own), and the
        rule proposes the next space. Nothing is applied here: approve the proposal on the Space view.
      </p>
      {stream ? (
        <p className="small muted" style={{ marginBottom: 0 }}>
          This project is a benchmark stream ({stream.modelName}): its history comes from the stream's updated arm.
        </p>
      ) : (
        <form
          className="fold-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (valid) void fold(task, { alpha: alphaN, rule, ...(rule === 'topk' ? { k: kN } : { phi: phiN }) });
          }}
        >
          <label>
            α <input type="number" min={0.01} max={1} step="any" value={alpha} onChange={(e) => setAlpha(e.target.value)} aria-label="EMA weight alpha" />
          </label>
          <label>
            rule{' '}
            <select value={rule} onChange={(e) => setRule(e.target.value as 'topk' | 'support')} aria-label="Update rule">
              <option value="topk">top-K</option>
              <option value="support">support frequency</option>
            </select>
          </label>
          {rule === 'topk' ? (
            <label>
              K <input type="number" min={1} step={1} value={k} onChange={(e) => setK(e.target.value)} aria-label="Budget K" />
            </label>
          ) : (
            <label>
              φ <input type="number" min={0} max={1} step="any" value={phi} onChange={(e) => setPhi(e.target.value)} aria-label="Minimum running support phi" />
            </label>
          )}
          <button
            type="submit"
            className="btn primary"
            disabled={viewOnly || folding || !valid}
            title={viewOnly ? VIEW_ONLY_REASON : undefined}
            data-testid="fold-batches"
          >
            {folding ? 'Folding…' : 'Fold new batches'}
          </button>
          {viewOnly && <span className="small muted">Folding is off: {VIEW_ONLY_REASON}.</span>}
          {!valid && <span className="bad small">α must be in (0, 1]; K a positive integer; φ in [0, 1].</span>}
        </form>
      )}
      {waiting.length > 0 && (
        <div className="callout warn small" style={{ marginTop: 10 }} data-testid="history-waiting">
          Not folded yet: {waiting.map((w) => `${w.source} (${fmtInt(w.traces)} traces)`).join(', ')}. A batch is folded once its traces are scored (Jobs view,
          or <code>lots score</code>).
        </div>
      )}
    </div>
  );
}

function ProposalCard({ history }: { history: HistoryData }) {
  const navigate = useStudio((s) => s.navigate);
  const approved = history.versions.at(-1);
  const diff = diffSpaces(approved?.tools ?? [], history.proposal);
  const same = approved !== undefined && diff.added.length === 0 && diff.removed.length === 0;
  const list = (tools: string[]) => tools.join(', ');
  return (
    <div className="card" data-testid="history-proposal">
      <div className="card-head">
        <h2>Proposal after batch {history.updates!.batches.at(-1)!.batch}</h2>
        <span className="sub" data-testid="history-proposal-status">
          {!approved
            ? 'no version approved yet · not applied'
            : same
              ? `the same tools as the deployed v${approved.version}: nothing to apply`
              : `differs from the deployed v${approved.version} · not applied`}
        </span>
      </div>
      {approved && !same && (
        <div className="callout warn small" style={{ marginBottom: 10 }} data-testid="history-differs">
          The folded space is not the deployed one. The gateways and exports serve approved v{approved.version}
          {` (${describeSpaceRule(approved.rule)})`}; the fold over the batches
          {diff.added.length > 0 ? (
            <>
              {' '}
              would add <span className="mono">{list(diff.added)}</span>
            </>
          ) : null}
          {diff.added.length > 0 && diff.removed.length > 0 ? ' and' : ''}
          {diff.removed.length > 0 ? (
            <>
              {' '}
              would drop <span className="mono">{list(diff.removed)}</span>, which v{approved.version} keeps
            </>
          ) : null}
          . Check the dropped tools on the Trace and Ranking views before approving the fold.
        </div>
      )}
      <div className="chips">
        {history.proposal.length === 0 && <span className="muted small">The rule keeps no tool.</span>}
        {history.proposal.map((t) => (
          <span
            key={t}
            className={`chip${diff.added.includes(t) ? ' added' : ''}`}
            title={diff.added.includes(t) ? 'new against the approved version' : 'kept'}
          >
            {t}
          </span>
        ))}
        {diff.removed.map((t) => (
          <span key={t} className="chip removed" title="in the approved version, not in the proposal">
            {t}
          </span>
        ))}
      </div>
      <div className="btn-row" style={{ marginTop: 10 }}>
        <button className="btn" onClick={() => navigate({ view: 'space' })}>
          Review and approve on the Space view…
        </button>
      </div>
    </div>
  );
}

/** Every tool with a running score, ordered by its latest running score. */
function toolsOf(updates: TaskUpdates): string[] {
  const last = updates.batches.at(-1)!.running;
  return Object.keys(last).sort((a, b) => last[b]! - last[a]! || (a < b ? -1 : 1));
}

function crossingText(c: Crossing, how: 'entered' | 'left', batch: number): string {
  const s = `running ${fmtSigned(c.running)}`;
  if (c.support !== undefined)
    return `${c.tool} ${how} at batch ${batch}: ${s}, running support ${fmtPercent(c.support)} ${how === 'entered' ? '≥' : '<'} φ ${c.cut}`;
  if (c.cut === null) return `${c.tool} ${how} at batch ${batch}: ${s} (the space had room for every scored tool)`;
  return `${c.tool} ${how} at batch ${batch}: ${s} ${how === 'entered' ? '≥' : '≤'} the cut ${fmtSigned(c.cut)}`;
}

function TimelineCard({ updates }: { updates: TaskUpdates }) {
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

const LINE_COLORS = ['#2166ac', '#d66018', '#2e8b57', '#7b4fa0', '#9a6a00', '#c2185b', '#00838f', '#5d4037'];
/** Per line a dash pattern and a marker besides its colour (issue 40: lines that run together stay apart). */
export const LINE_DASHES = ['', '7 3', '2 3', '9 3 2 3', '4 4', '1 2', '12 4', '5 2 1 2'];
const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'cross', 'triangle-down', 'circle-open', 'square-open'] as const;
type Marker = (typeof MARKERS)[number];

function MarkerShape({ cx, cy, marker, color }: { cx?: number; cy?: number; marker: Marker; color: string }) {
  if (cx === undefined || cy === undefined || !Number.isFinite(cx) || !Number.isFinite(cy)) return null;
  const r = 3.5;
  const filled = { fill: color, stroke: color };
  switch (marker) {
    case 'square':
      return <rect x={cx - r} y={cy - r} width={2 * r} height={2 * r} {...filled} />;
    case 'square-open':
      return <rect x={cx - r} y={cy - r} width={2 * r} height={2 * r} fill="var(--surface)" stroke={color} strokeWidth={1.5} />;
    case 'triangle':
      return <path d={`M${cx},${cy - r - 1}L${cx + r + 0.5},${cy + r}L${cx - r - 0.5},${cy + r}Z`} {...filled} />;
    case 'triangle-down':
      return <path d={`M${cx},${cy + r + 1}L${cx + r + 0.5},${cy - r}L${cx - r - 0.5},${cy - r}Z`} {...filled} />;
    case 'diamond':
      return <path d={`M${cx},${cy - r - 1}L${cx + r + 1},${cy}L${cx},${cy + r + 1}L${cx - r - 1},${cy}Z`} {...filled} />;
    case 'cross':
      return <path d={`M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx + r},${cy - r}L${cx - r},${cy + r}`} stroke={color} strokeWidth={2} />;
    case 'circle-open':
      return <circle cx={cx} cy={cy} r={r} fill="var(--surface)" stroke={color} strokeWidth={1.5} />;
    default:
      return <circle cx={cx} cy={cy} r={r} {...filled} />;
  }
}

const TrajectoryCard = memo(function TrajectoryCard({ updates }: { updates: TaskUpdates }) {
  const colors = useChartColors();
  // Tools that were ever proposed, then the best others, at most eight lines.
  const tools = useMemo(() => {
    const ever = new Set(updates.batches.flatMap((b) => b.proposed));
    const all = toolsOf(updates);
    return [...all.filter((t) => ever.has(t)), ...all.filter((t) => !ever.has(t))].slice(0, LINE_COLORS.length);
  }, [updates]);
  const data = useMemo(
    () => updates.batches.map((b) => ({ batch: b.batch, ...Object.fromEntries(tools.map((t) => [t, b.running[t] ?? null])) })),
    [updates, tools],
  );
  // One tool singled out (legend click or the buttons below): the others fade.
  const [focus, setFocus] = useState<string | null>(null);
  return (
    <div className="card">
      <div className="card-head">
        <h2>Running scores</h2>
        <span className="sub">
          Ĩ(s) after each batch · α = {updates.alpha} · each tool has its colour, dash and marker; press a name below to single it out
        </span>
      </div>
      <div className="chart" data-testid="history-trajectory">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 10, right: 18, bottom: 18, left: 8 }}>
            <CartesianGrid stroke={colors.grid} />
            <XAxis
              dataKey="batch"
              type="number"
              domain={[1, Math.max(1, updates.batches.length)]}
              allowDecimals={false}
              tick={{ fontSize: 11, fill: colors.text }}
              stroke={colors.axis}
              label={{ value: 'batch', position: 'insideBottom', offset: -10, fontSize: 11, fill: colors.text }}
            />
            <YAxis
              tick={{ fontSize: 11, fill: colors.text }}
              stroke={colors.axis}
              width={56}
              domain={['auto', 'auto']}
              tickFormatter={(v: number) => fmtSigned(v, 2)}
            />
            <Tooltip contentStyle={colors.tooltip} labelFormatter={(v) => `after batch ${Number(v)}`} formatter={(v) => fmtSigned(Number(v))} />
            {tools.map((t, i) => (
              <Line
                key={t}
                dataKey={t}
                stroke={LINE_COLORS[i]}
                strokeWidth={focus === t ? 3 : 2}
                strokeOpacity={focus === null || focus === t ? 1 : 0.15}
                strokeDasharray={LINE_DASHES[i] || undefined}
                dot={(p: { cx?: number; cy?: number; key?: Key | null; index?: number }) => (
                  <MarkerShape
                    key={p.key ?? `${t}-${p.index ?? 0}`}
                    cx={p.cx}
                    cy={p.cy}
                    marker={MARKERS[i]!}
                    color={focus === null || focus === t ? LINE_COLORS[i]! : 'transparent'}
                  />
                )}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <div
        className="btn-row"
        role="group"
        aria-label="The lines: single out a tool"
        style={{ marginTop: 6, flexWrap: 'wrap' }}
        data-testid="history-line-focus"
      >
        {tools.map((t, i) => (
          <button
            key={t}
            className="btn ghost small"
            aria-pressed={focus === t}
            onClick={() => setFocus(focus === t ? null : t)}
            data-tool={t}
            title={focus === t ? 'Show every line again' : `Single out ${t}`}
          >
            <svg width="30" height="10" aria-hidden="true" style={{ marginRight: 4, verticalAlign: 'middle' }}>
              <line x1="1" x2="29" y1="5" y2="5" stroke={LINE_COLORS[i]} strokeWidth={2} strokeDasharray={LINE_DASHES[i] || undefined} />
              <MarkerShape cx={15} cy={5} marker={MARKERS[i]!} color={LINE_COLORS[i]!} />
            </svg>
            {t}
          </button>
        ))}
      </div>
    </div>
  );
});

const ARM_COLORS: Record<StreamArm, string> = { 'keep-all': '#8a8f98', frozen: '#d66018', updated: '#2166ac', capped: '#2e8b57' };

function StreamCard({ stream }: { stream: NonNullable<HistoryData['stream']> }) {
  const colors = useChartColors();
  // frozen (dashed) after updated, so where the two coincide both stay visible
  const arms = (['keep-all', 'updated', 'frozen', 'capped'] as const).filter((a) => stream.task.arms[a]);
  const label = (a: StreamArm) => (a === 'capped' ? `capped (C = ${stream.options.cap}, ε = ${stream.options.epsilon})` : a);
  const rows = stream.task.arms.updated.map((u, i) => ({
    batch: u.batch,
    ...Object.fromEntries(arms.map((a) => [`acc:${a}`, stream.task.arms[a]?.[i]?.eval.accuracy ?? null])),
    ...Object.fromEntries(arms.map((a) => [`tok:${a}`, stream.task.arms[a]?.[i]?.served.promptTokens ?? null])),
  }));
  const chart = (prefix: 'acc' | 'tok', testid: string, y: (v: number) => string, domain?: [number, number]) => (
    <div className="chart" data-testid={testid}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={rows} margin={{ top: 10, right: 18, bottom: 18, left: 8 }}>
          <CartesianGrid stroke={colors.grid} />
          <XAxis
            dataKey="batch"
            type="number"
            domain={[1, Math.max(1, rows.length)]}
            allowDecimals={false}
            tick={{ fontSize: 11, fill: colors.text }}
            stroke={colors.axis}
            label={{ value: 'batch', position: 'insideBottom', offset: -10, fontSize: 11, fill: colors.text }}
          />
          <YAxis tick={{ fontSize: 11, fill: colors.text }} stroke={colors.axis} width={48} tickFormatter={y} domain={domain ?? ['auto', 'auto']} />
          <Tooltip contentStyle={colors.tooltip} labelFormatter={(v) => `batch ${Number(v)}`} formatter={(v) => y(Number(v))} />
          <Legend verticalAlign="top" height={28} wrapperStyle={{ fontSize: 12 }} />
          {arms.map((a) => (
            <Line
              key={a}
              dataKey={`${prefix}:${a}`}
              name={label(a)}
              stroke={ARM_COLORS[a]}
              strokeWidth={2}
              strokeDasharray={a === 'frozen' ? '5 3' : undefined}
              dot={{ r: 3 }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
  return (
    <div className="card" data-testid="history-stream">
      <div className="card-head">
        <h2>Benchmark stream</h2>
        <span className="sub">
          {stream.modelName} · {stream.options.batches} batches of {stream.options.batchSize} · {stream.options.eval} evaluation requests · arrives at step{' '}
          {stream.task.arrival}
        </span>
      </div>
      <div className="grid-2">
        <div>
          <h3 className="small">Accuracy on the evaluation requests after each batch</h3>
          {chart('acc', 'stream-accuracy', (v) => fmtPercent(v), [0, 1])}
        </div>
        <div>
          <h3 className="small">Prompt tokens per request of the batch</h3>
          {chart('tok', 'stream-tokens', (v) => fmtInt(v))}
        </div>
      </div>
    </div>
  );
}

function VersionsCard({ history }: { history: HistoryData }) {
  const navigate = useStudio((s) => s.navigate);
  if (history.versions.length === 0) {
    return (
      <div className="card">
        <div className="card-head">
          <h2>Approved versions</h2>
        </div>
        <p className="muted small" style={{ margin: 0 }}>
          None yet.{' '}
          <button className="btn small" onClick={() => navigate({ view: 'space' })}>
            Approve a space…
          </button>
        </p>
      </div>
    );
  }
  return (
    <div className="card">
      <div className="card-head">
        <h2>Approved versions</h2>
        <span className="sub">{history.versions.length} · newest last</span>
      </div>
      <table className="table small" data-testid="history-versions">
        <thead>
          <tr>
            <th>version</th>
            <th>approved</th>
            <th>tools</th>
            <th>change</th>
            <th>note</th>
          </tr>
        </thead>
        <tbody>
          {history.versions.map((v, i) => {
            const d = diffSpaces(history.versions[i - 1]?.tools ?? [], v.tools);
            return (
              <tr key={v.version}>
                <td className="tabular">v{v.version}</td>
                <td className="tabular">{fmtTime(v.createdAt)}</td>
                <td className="mono">{v.tools.join(', ') || '(none)'}</td>
                <td className="mono">{[...d.added.map((t) => `+${t}`), ...d.removed.map((t) => `−${t}`)].join(' ') || '—'}</td>
                <td>{v.note}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
