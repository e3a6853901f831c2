// The rows a reviewer asks for beside the demo's result (issue 39): the gold-chain oracle and LOTS at a
// fixed K = 2 and K = 4 (the paper's Table 9 regimes), next to LOTS at its label-chosen K and keep-all,
// each with LOTS's paired difference against it (the spread over seeds is DemoSeeds.tsx).
import type { DemoData } from '../../shared/api';
import { FIXED_KS, fixedKDraws, type FixedKTable } from '../../shared/benchmark/fixed-k-table';
import { formatSigned, type PairedDifference } from '../../shared/benchmark/paired';
import { methodLabel } from '../../shared/export/demo-report';
import { DELETION_BASELINES, SELECTION_METHODS } from '../../shared/selection/registry';
import { fmtInt } from '../format';
import { percent, plural } from '../../shared/text';

/** The reference rows, in the order they are shown. */
export const REFERENCE_ROWS = ['oracle', 'lots-k2', 'lots-k4', 'lots-deferred', 'lots-drop-top', 'lots-drop-random'] as const;

const DEFINITIONS: Readonly<Record<string, string>> = Object.fromEntries(SELECTION_METHODS.map((m) => [m.id, m.definition]));

const points = (x: number) => formatSigned(x * 100, 0);

export function DemoReference({ data }: { data: DemoData }) {
  const present = REFERENCE_ROWS.filter((m) => data.mean[m]?.eval);
  const rows = ['lots', ...present, 'keep-all'].filter((m) => data.mean[m]?.eval);
  const deletion = present.some((m) => (DELETION_BASELINES as readonly string[]).includes(m));
  const paired = new Map(data.paired?.against.map((a) => [a.baseline, a.accuracy.pooled]) ?? []);
  return (
    <div className="card" style={{ marginTop: 14 }} data-testid="demo-reference">
      <div className="card-head">
        <h2>
          Reference rows: the gold-chain oracle, LOTS at a fixed K, LOTS with the rest deferred
          {deletion ? ', LOTS less one tool' : ''}
        </h2>
        <span className="small muted">evaluation requests, mean over families</span>
      </div>
      {present.length === 0 ? (
        <p className="small text-2" style={{ margin: 0 }} data-testid="demo-reference-missing">
          This run has no reference rows. <code>lots demo --baselines all</code> (or <code>--baselines oracle,lots-k2,lots-k4,lots-deferred</code>) adds the
          gold-chain oracle (the answer key's tools: what a perfect selector would serve), LOTS at K = 2 and K = 4 (the same ranking, K fixed without labels),
          so LOTS's label-chosen K can be read against both, and LOTS with the task's other scored tools deferred (listed, run only when the model asks).
        </p>
      ) : (
        <>
          <table className="table" data-testid="demo-reference-table">
            <thead>
              <tr>
                <th>Row</th>
                <th className="num">Accuracy</th>
                <th className="num">Prompt tokens</th>
                <th className="num">LOTS minus it [95% interval]</th>
                <th>What it is</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => {
                const c = data.mean[m]!.eval!;
                const d = paired.get(m);
                return (
                  <tr key={m} data-method={m}>
                    <td className="nowrap">
                      <strong>{m === 'lots' ? 'LOTS (label-chosen K)' : methodLabel(m)}</strong>
                    </td>
                    <td className="num tabular">
                      {percent(c.accuracy)} <span className="muted">of {fmtInt(c.n)}</span>
                    </td>
                    <td className="num tabular">{fmtInt(Math.round(c.promptTokens))}</td>
                    <td className="num tabular">
                      {m === 'lots'
                        ? '—'
                        : d
                          ? `${points(d.difference)} pts ${d.interval ? `[${points(d.interval.lo)}, ${points(d.interval.hi)}]` : '(too few for an interval)'}`
                          : 'not paired'}
                    </td>
                    <td className="small text-2">
                      {m === 'lots' ? 'the top-K of the ranking, K the smallest at the best fitting accuracy (labels used to choose K)' : DEFINITIONS[m]}
                      {m === 'lots-deferred' && data.deferredCalls && (
                        <div style={{ marginTop: 2 }} data-testid="demo-deferred-calls">
                          Asked for a deferred tool on {fmtInt(data.deferredCalls.asked)} of {fmtInt(data.deferredCalls.n)} requests
                          {data.deferredCalls.asked > 0 ? `, ${fmtInt(data.deferredCalls.rightAfterAsking)} then right` : ''}.
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="small muted" style={{ margin: '6px 0 0' }}>
            Reference rows are not methods a deployment could run: the oracle reads the benchmark's answer key. A gap between LOTS and the oracle is what a
            better ranking could still win; LOTS at K = 2 and 4 shows how much the label-chosen K matters; LOTS pinned + deferred shows whether the model asks
            for a tool left out of the top K when it needs it.
            {deletion &&
              ' LOTS less its top tool against less a random one (the deletion ablation) shows whether the ranking put first what the answers depend on.'}
          </p>
          {data.fixedK && <FixedKBlock table={data.fixedK} />}
        </>
      )}
    </div>
  );
}

/** The paper's Table 9: each label-free ranking at the same K as LOTS's top-K, paired on the same requests. */
function FixedKBlock({ table }: { table: FixedKTable }) {
  const cell = (d: PairedDifference | undefined) =>
    d ? `${points(d.difference)} pts ${d.interval ? `[${points(d.interval.lo)}, ${points(d.interval.hi)}]` : '(too few for an interval)'}` : '—';
  return (
    <div style={{ marginTop: 12 }} data-testid="demo-fixed-k">
      <h3 style={{ margin: '0 0 4px' }}>Every ranking at the same K (the paper's Table 9)</h3>
      <table className="table" data-testid="demo-fixed-k-table">
        <thead>
          <tr>
            <th>Ranking</th>
            {FIXED_KS.map((k) => (
              <th key={k} className="num">
                Accuracy at K{'\u00a0=\u00a0'}
                {k}
              </th>
            ))}
            {FIXED_KS.map((k) => (
              <th key={k} className="num">
                LOTS minus it at K{'\u00a0=\u00a0'}
                {k} [95%{'\u00a0'}interval]
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr data-method="lots">
            <td className="nowrap">
              <strong>LOTS</strong>
            </td>
            {FIXED_KS.map((k) => (
              <td key={k} className="num tabular">
                {percent(table.lots[k])}
              </td>
            ))}
            {FIXED_KS.map((k) => (
              <td key={k} className="num tabular">
                —
              </td>
            ))}
          </tr>
          {table.rows.map((r) => (
            <tr key={r.baseline} data-method={r.baseline}>
              <td className="nowrap">
                <strong>{methodLabel(r.baseline)}</strong>
                <DrawsNote draws={fixedKDraws(r)} />
              </td>
              {FIXED_KS.map((k) => (
                <td key={k} className="num tabular">
                  {percent(r.cells[k]?.accuracy)}
                </td>
              ))}
              {FIXED_KS.map((k) => (
                <td key={k} className="num tabular">
                  {cell(r.cells[k]?.difference)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small muted" style={{ margin: '6px 0 0' }}>
        Here no fitting label chooses any space: every ranking keeps its top K tools in every family, so the difference is the ranking's alone.
      </p>
    </div>
  );
}

/** " (5 draws)" after a ranking drawn at random: how many draws its accuracy is the mean of. */
export function DrawsNote({ draws }: { draws: number | undefined }) {
  if (draws === undefined) return null;
  return <span className="muted small"> ({plural(draws, 'draw')})</span>;
}
