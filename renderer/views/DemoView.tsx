// The demo: one click builds the built-in benchmark project, then a guided walk through
// score → rank → sweep → approve → export, each step a button that does it for real.
import { useEffect } from 'react';
import type { DemoData } from '../../shared/api';
import { accuracyChart, accuracyTokensChart, growthChart, K_BY_DEFAULT, METHOD_LABELS, methodLabel, tokensChart } from '../../shared/export/demo-report';
import { costHtml, pairedHtml } from '../../shared/export/demo-statistics';
import { downloadText } from '../api/files';
import { useApi, useStudio } from '../store/react';
import { DemoRunCard } from './DemoRunCard';
import { DemoDecodeCaveat, DemoHeadline, DemoProvenance } from './DemoHeadline';
import { DemoDifferences } from './DemoDifferences';
import { DemoReference } from './DemoReference';
import { DemoSeeds } from './DemoSeeds';
import { useCanWrite, ViewOnlyNote } from '../components/ViewOnly';
import { DemoWalk } from './demo/DemoWalk';

export function DemoView() {
  const project = useStudio((s) => s.project);
  const data = useStudio((s) => s.demoData);
  const loadDemo = useStudio((s) => s.loadDemo);
  const revision = project ? `${project.dir}|${project.runs.length}|${project.tasks.length}` : '';
  useEffect(() => {
    void loadDemo();
  }, [revision, loadDemo]);
  const hasStory = Boolean(project && data && data.tasks.length > 0);
  // The view-only link may not read the demo settings or start a run (access.ts): no run card then.
  const canWrite = useCanWrite();
  const runCard = canWrite ? <DemoRunCard /> : <ViewOnlyNote what="Running the demo and its steps" />;
  return (
    <div style={{ maxWidth: 1180 }}>
      {hasStory && data ? <DemoStory data={data} /> : null}
      {hasStory ? <div style={{ marginTop: 22 }}>{runCard}</div> : null}
      <DemoWalk compact={hasStory} runCard={hasStory ? null : runCard} />
    </div>
  );
}

/** The demo project in one screen: what was measured, per method and per family. */
function DemoStory({ data }: { data: DemoData }) {
  const project = useStudio((s) => s.project);
  const navigate = useStudio((s) => s.navigate);
  const setTask = useStudio((s) => s.setTask);
  const fail = useStudio((s) => s.fail);
  const api = useApi();
  const r = data.record;
  const open = (task: string, view: 'heatmap' | 'ranking' | 'space') => {
    setTask(task);
    navigate({ view, task });
  };
  const report = async () => {
    try {
      const out = await api.renderDemoReport();
      downloadText(out.filename, out.html, 'text/html');
    } catch (e) {
      fail(e, 'The demo report was not rendered');
    }
  };
  const growth = r && r.growth.length > 1 ? growthChart(r.growth) : '';
  const paired = pairedHtml(data.paired, METHOD_LABELS, 'table');
  const cost = costHtml(data.cost, METHOD_LABELS, 'table');
  return (
    <section className="demo-story" data-testid="demo-story" aria-label="Demo results">
      <div className="view-header">
        <div>
          <h1>What LOTS did on {project?.name ?? 'this project'}</h1>
          <DemoHeadline data={data} />
          <DemoProvenance data={data} />
          <DemoDecodeCaveat data={data} />
        </div>
        <div className="field-row">
          <button className="btn" onClick={() => void report()} data-testid="demo-report">
            Download the report
          </button>
        </div>
      </div>
      <JumpLinks
        targets={[
          ['demo-families-card', 'The families'],
          ...(data.differences && data.differences.length > 0 ? ([['demo-differences', 'Where they differ']] as const) : []),
          ...(paired ? ([['demo-paired', 'Is the difference real?']] as const) : []),
          ...(cost ? ([['demo-cost', 'The cost of selection']] as const) : []),
        ]}
      />
      <div className="demo-charts">
        <div className="card">
          <div className="card-head">
            <h2>Accuracy per method</h2>
            <span className="small muted">mean over families</span>
          </div>
          <div className="svg-chart" dangerouslySetInnerHTML={{ __html: accuracyChart(data) }} />
        </div>
        <div className="card">
          <div className="card-head">
            <h2>Prompt tokens per request</h2>
            <span className="small muted">evaluation requests</span>
          </div>
          <div className="svg-chart" dangerouslySetInnerHTML={{ __html: tokensChart(data) }} />
        </div>
        <div className="card" data-testid="demo-accuracy-tokens">
          <div className="card-head">
            <h2>Accuracy against prompt tokens</h2>
            <span className="small muted">up and to the left is better</span>
          </div>
          <div className="svg-chart" dangerouslySetInnerHTML={{ __html: accuracyTokensChart(data) }} />
        </div>
        {growth ? (
          <div className="card" data-testid="demo-growth">
            <div className="card-head">
              <h2>As the registry grows</h2>
              <span className="small muted">{families(r!.growth[0]!.families.length)}</span>
            </div>
            <div className="svg-chart" dangerouslySetInnerHTML={{ __html: growth }} />
          </div>
        ) : null}
      </div>
      <div className="card" style={{ marginTop: 14 }} id="demo-families-card" tabIndex={-1} aria-label="The families">
        <div className="card-head">
          <h2>Per family: the kept tools against the gold chain</h2>
          <span className="small muted">green: in the chain · red: not</span>
        </div>
        <table className="table demo-families" data-testid="demo-families">
          <thead>
            <tr>
              <th>Family</th>
              <th className="num">K</th>
              <th>Kept by LOTS</th>
              <th>Gold chain</th>
              <th className="num">LOTS fit / eval</th>
              <th className="num">Keep-all fit / eval</th>
              <th>Open</th>
            </tr>
          </thead>
          <tbody>
            {data.tasks.map((t) => {
              const chain = new Set(t.chain);
              const cell = (m: string) => {
                const c = t.methods[m];
                const f = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(2));
                return `${f(c?.fit?.accuracy)} / ${f(c?.eval?.accuracy)}`;
              };
              return (
                <tr key={t.task}>
                  <td>
                    <strong>{t.task}</strong>
                  </td>
                  <td className="num">
                    {t.k}
                    {t.kByDefault && (
                      <sup title={K_BY_DEFAULT} aria-label="chosen by default">
                        *
                      </sup>
                    )}
                  </td>
                  <td>
                    {t.kept.map((tool) => (
                      <span key={tool} className={`pill ${chain.has(tool) ? 'good' : 'bad'}`} style={{ marginRight: 4 }}>
                        {tool}
                      </span>
                    ))}
                  </td>
                  <td className="small text-2">{t.chain.length ? t.chain.join(' → ') : '(no tool)'}</td>
                  <td className="num tabular">{cell('lots')}</td>
                  <td className="num tabular">{cell('keep-all')}</td>
                  <td className="demo-open">
                    <button className="btn small ghost" onClick={() => open(t.task, 'heatmap')} aria-label={`Heatmap of ${t.task}`}>
                      Heatmap
                    </button>
                    <button className="btn small ghost" onClick={() => open(t.task, 'ranking')} aria-label={`Ranking of ${t.task}`}>
                      Ranking
                    </button>
                    <button className="btn small ghost" onClick={() => open(t.task, 'space')} aria-label={`Space of ${t.task}`}>
                      Space
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <p className="small muted" style={{ marginTop: 6 }}>
          Methods compared: {data.methods.map(methodLabel).join(', ')}. Accuracy: the first number of the answer within max(0.01, 0.1%) of the gold value.
        </p>
        {data.tasks.some((t) => t.kByDefault) && (
          <p className="small muted" style={{ marginTop: 2 }} data-testid="demo-k-by-default">
            * {K_BY_DEFAULT}
          </p>
        )}
      </div>
      <DemoReference data={data} />
      <DemoSeeds data={data} />
      <DemoDifferences data={data} />
      {paired ? (
        <div className="card demo-stat" style={{ marginTop: 14 }} id="demo-paired" tabIndex={-1} aria-label="Is the difference real?">
          <div className="card-head">
            <h2>Is the difference real? LOTS minus each baseline</h2>
            <span className="small muted">paired on the same evaluation requests</span>
          </div>
          <div className="table-scroll" dangerouslySetInnerHTML={{ __html: paired }} />
        </div>
      ) : null}
      {cost ? (
        <div className="card demo-stat" style={{ marginTop: 14 }} id="demo-cost" tabIndex={-1} aria-label="The cost of selection">
          <div className="card-head">
            <h2>The cost of selection</h2>
            <span className="small muted">prompt tokens the model read to choose, and when it pays back</span>
          </div>
          <div className="table-scroll" dangerouslySetInnerHTML={{ __html: cost }} />
        </div>
      ) : null}
    </section>
  );
}

/** "Jump to" links under the headline: the long story's sections one Tab and Enter away (a keyboard user
 * otherwise tabs through every family's three buttons to reach the differences). The focus moves to the
 * section, so the next Tab is inside it. */
function JumpLinks({ targets }: { targets: readonly (readonly [string, string])[] }) {
  return (
    <nav className="jump-links small" aria-label="Jump to a section" data-testid="demo-jump">
      <span className="muted">Jump to:</span>
      {targets.map(([id, label]) => (
        <button
          key={id}
          data-target={id}
          className="btn ghost small"
          onClick={() => {
            const target = document.getElementById(id);
            target?.focus({ preventScroll: true });
            target?.scrollIntoView?.({ block: 'start' });
          }}
        >
          {label}
        </button>
      ))}
    </nav>
  );
}

const families = (n: number): string => (n === 1 ? '1 family' : `${n} families`);
