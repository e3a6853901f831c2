// The History view's benchmark-stream card: every arm's accuracy and prompt tokens batch by batch.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { HistoryData } from '../../../shared/api';
import type { StreamArm } from '../../../shared/project/streams';
import { fmtInt, fmtPercent } from '../../format';
import { useChartColors } from '../chart-colors';

const ARM_COLORS: Record<StreamArm, string> = { 'keep-all': '#8a8f98', frozen: '#d66018', updated: '#2166ac', capped: '#2e8b57' };

export function StreamCard({ stream }: { stream: NonNullable<HistoryData['stream']> }) {
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
      {stream.caveat && (
        <div className="callout warn small" role="note" style={{ marginBottom: 10 }} data-testid="history-stream-caveat">
          {stream.caveat}
        </div>
      )}
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
