// The History view's running-score chart: one line per tool along the batches, one tool singled out on demand.
import { memo, useMemo, useState, type Key } from 'react';
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TaskUpdates } from '../../../shared/project/updates';
import { fmtSigned } from '../../format';
import { useChartColors } from '../chart-colors';
import { LINE_COLORS, LINE_DASHES, MARKERS, MarkerShape } from './LineMarkers';
import { toolsOf } from './tools-of';

export const TrajectoryCard = memo(function TrajectoryCard({ updates }: { updates: TaskUpdates }) {
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
