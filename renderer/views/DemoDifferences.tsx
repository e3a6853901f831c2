// "Where they differ" on the Demo view (issue 40): the evaluation requests LOTS answered right and
// keep-all did not, and the reverse, side by side — the difference itself, not only its size. One click
// on a request shows it under both menus next to each other: the tool lines the model read with LOTS's
// space and with the whole registry (the project holds the request as recorded under the whole
// registry; LOTS's side is the same request executed again with only the kept tools, by the
// benchmark's own executor), with which menu got it right, and the trace one more click away.
import { useEffect, useRef, useState } from 'react';
import type { DemoData, DemoDifference } from '../../shared/api';
import { reexecuteWithoutTools } from '../../shared/benchmark/trace';
import type { Trace } from '../../shared/trace/schema';
import { fmtInt } from '../format';
import { useApi, useStudio } from '../store/react';

const SHOWN = 6;

export function DemoDifferences({ data }: { data: DemoData }) {
  const diffs = data.differences;
  const [open, setOpen] = useState<DemoDifference | null>(null);
  if (!diffs || diffs.length === 0) return null;
  const won = diffs.filter((d) => d.lotsRight);
  const lost = diffs.filter((d) => !d.lotsRight);
  const kept = new Map(data.tasks.map((t) => [t.task, t.kept]));
  return (
    <div className="card" style={{ marginTop: 14 }} data-testid="demo-differences" id="demo-differences" tabIndex={-1} aria-label="Where they differ">
      <div className="card-head">
        <h2>Where they differ</h2>
        <span className="small muted">evaluation requests one menu got right and the other wrong · click one to see it under both menus</span>
      </div>
      <div className="grid-2">
        <DiffList title={`LOTS right, keep-all wrong (${won.length})`} items={won} kept={kept} testId="demo-lots-only" open={open} onOpen={setOpen} />
        <DiffList title={`Keep-all right, LOTS wrong (${lost.length})`} items={lost} kept={kept} testId="demo-all-only" open={open} onOpen={setOpen} />
      </div>
      {open && (
        <DiffCompare
          key={open.request}
          d={open}
          kept={kept.get(open.task) ?? []}
          onClose={() => {
            // Back to the request it was opened from (keyboard users keep their place in the list).
            document.querySelector<HTMLButtonElement>(`button.diff-item[data-request="${CSS.escape(open.request)}"]`)?.focus();
            setOpen(null);
          }}
        />
      )}
    </div>
  );
}

function DiffList({
  title,
  items,
  kept,
  testId,
  open,
  onOpen,
}: {
  title: string;
  items: DemoDifference[];
  kept: Map<string, string[]>;
  testId: string;
  open: DemoDifference | null;
  onOpen(d: DemoDifference | null): void;
}) {
  const [all, setAll] = useState(false);
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
                className={`diff-item${open?.request === d.request ? ' selected' : ''}`}
                onClick={() => onOpen(open?.request === d.request ? null : d)}
                aria-expanded={open?.request === d.request}
                aria-controls="demo-diff-compare"
                aria-label={`Compare ${d.request} under both menus`}
                data-request={d.request}
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

interface Line {
  tool: string;
  output: string;
}

/** The tool lines of the request's only turn (benchmark traces print one line per served tool). */
function linesOf(trace: Trace): Line[] {
  return (trace.turns[0]?.steps ?? []).flatMap((s) => (s.kind === 'lines' ? s.lines : []));
}

/** The request under LOTS's space: executed again with only the kept tools; else the recorded lines of the kept tools. */
export function underSpace(trace: Trace, kept: readonly string[]): { lines: Line[]; rebuilt: boolean; why?: string } {
  const keep = new Set(kept);
  const dropped = trace.tools.map((t) => t.name).filter((n) => !keep.has(n));
  try {
    return { lines: linesOf(reexecuteWithoutTools(trace, 0, dropped)), rebuilt: true };
  } catch (e) {
    return { lines: linesOf(trace).filter((l) => keep.has(l.tool)), rebuilt: false, why: e instanceof Error ? e.message : String(e) };
  }
}

function DiffCompare({ d, kept, onClose }: { d: DemoDifference; kept: string[]; onClose(): void }) {
  const api = useApi();
  const openTrace = useStudio((s) => s.openTrace);
  const setTask = useStudio((s) => s.setTask);
  const [trace, setTrace] = useState<Trace | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLElement>(null);
  // The focus moves to the comparison when it opens, so the next Tab is its "Open the trace" (from the
  // keyboard it was a dozen Tabs further down the lists); Escape closes it and goes back to the request.
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);
  // The comparison opens under both lists: bring it into view (a click high in a long list is far above it).
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [trace]);
  useEffect(() => {
    let live = true;
    api.getTrace({ id: d.request }).then(
      (detail) => live && setTrace(detail.trace),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [api, d.request]);
  const all = trace ? linesOf(trace) : [];
  const lots = trace ? underSpace(trace, kept) : null;
  const keptSet = new Set(kept);
  const gold = trace?.turns[0]?.gold;
  const verdict = (right: boolean) => <span className={`pill ${right ? 'good' : 'bad'}`}>{right ? 'answered right' : 'answered wrong'}</span>;
  return (
    <section
      ref={ref}
      className="diff-compare"
      id="demo-diff-compare"
      data-testid="demo-diff-compare"
      aria-label={`${d.request} under both menus`}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="diff-compare-head">
        <div>
          <strong>{d.request}</strong> <span className="pill">{d.task}</span>
          <div className="small">{d.text ?? trace?.turns[0]?.request ?? ''}</div>
          {gold !== undefined && <div className="small text-2">Gold answer: {gold}</div>}
        </div>
        <div className="btn-row">
          <button
            className="btn small"
            onClick={() => {
              setTask(d.task);
              void openTrace(d.request);
            }}
            aria-label={`Open the trace of ${d.request}`}
            data-testid="demo-diff-open-trace"
          >
            Open the trace
          </button>
          <button className="btn ghost small" onClick={onClose} aria-label="Close the comparison">
            ✕
          </button>
        </div>
      </div>
      {error ? (
        <p className="bad small">The trace could not be read: {error}</p>
      ) : !trace || !lots ? (
        <p className="muted small">Reading the trace…</p>
      ) : (
        <>
          <div className="grid-2 diff-compare-cols">
            <div data-testid="demo-diff-lots">
              <h4 className="small">
                LOTS's space · {kept.length} tool{kept.length === 1 ? '' : 's'} · {fmtInt(d.lotsTokens)} prompt tokens · {verdict(d.lotsRight)}
              </h4>
              <ol className="diff-lines">
                {lots.lines.length === 0 && <li className="muted">no tool line: the model answered from the request alone</li>}
                {lots.lines.map((l) => {
                  const before = all.find((a) => a.tool === l.tool)?.output;
                  const changed = before !== undefined && before !== l.output;
                  return (
                    <li key={l.tool} data-tool={l.tool} className={changed ? 'changed' : undefined}>
                      <span className="mono">{l.tool}</span>: {l.output}
                      {changed && <span className="pill warn tiny"> changed: an input it used is not on this menu</span>}
                    </li>
                  );
                })}
              </ol>
            </div>
            <div data-testid="demo-diff-all">
              <h4 className="small">
                Keep-all · {trace.tools.length} tools · {fmtInt(d.allTokens)} prompt tokens · {verdict(!d.lotsRight)}
              </h4>
              <ol className="diff-lines">
                {all.map((l) => (
                  <li key={l.tool} data-tool={l.tool} className={keptSet.has(l.tool) ? undefined : 'not-in-space'}>
                    <span className="mono">{l.tool}</span>: {l.output}
                  </li>
                ))}
              </ol>
            </div>
          </div>
          <p className="tiny muted" style={{ margin: '6px 0 0' }}>
            Greyed on the right: tools not in LOTS's space.{' '}
            {lots.rebuilt
              ? "LOTS's side is the request executed again with only its tools (the benchmark's executor), so a tool that lost an input shows what it reported then."
              : `LOTS's side shows the recorded lines of its tools (the request could not be executed again here: ${lots.why}).`}{' '}
            The model's answers under each menu are not kept by the demo run; right and wrong are as it measured them.
          </p>
        </>
      )}
    </section>
  );
}
