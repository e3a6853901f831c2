// The Gateway view (README "Gateways"): the gateways (`lots gateway openai|mcp`) that serve the open
// project, each from the status record it keeps in the project — where it listens, its upstream,
// requests per task, the tools its spaces hid and the prompt tokens that saved, the batch it is recording
// — what failed (the MCP gateway's upstream failures, and why a gateway stopped on its own), the requests
// the router left unrouted, the three states of each task's served space and the deferred tools the
// agent called anyway — and the fold of what they recorded into each task's running scores (`lots update`, the History
// view's own fold), which leads to the new proposal on the Space view. Gateways are other processes: the
// view reads their records again every few seconds while it is shown.
import { useEffect } from 'react';
import type { GatewayBatchState, GatewayFoldTask, GatewayInfo, GatewayTaskRow, GatewayViewData } from '../../shared/api';
import { Empty } from '../components/Empty';
import { fmtInt, fmtTime, plural } from '../format';
import { useStudio } from '../store/react';

/** How often the records are read again while the view is shown. */
const POLL_MS = 3000;

export function GatewayView() {
  const project = useStudio((s) => s.project);
  const data = useStudio((s) => (s.project && s.gatewaysDir === s.project.dir ? s.gateways : null));
  const load = useStudio((s) => s.loadGateways);
  const dataVersion = useStudio((s) => s.dataVersion);
  const dir = project?.dir;
  useEffect(() => {
    if (!dir) return;
    void load();
    const timer = setInterval(() => void load({ quiet: true }), POLL_MS);
    return () => clearInterval(timer);
  }, [dir, dataVersion, load]);
  if (!project) return <Empty title="No project open">Open a project first: gateways serve its approved spaces and record their traffic into it.</Empty>;
  if (!data) return <p className="muted">Reading the gateways of {project.name}…</p>;
  if (data.gateways.length === 0) return <NoGateway dir={project.dir} />;
  const live = data.gateways.filter((g) => g.status === 'running');
  const stopped = data.gateways.filter((g) => g.status !== 'running');
  // The gateways that stopped because something failed, newest first: said before anything else.
  const failed = stopped.filter((g) => g.failure !== null).slice(0, 3);
  return (
    <div className="gateway-view" data-testid="gateway-view">
      {failed.map((g) => (
        <div key={g.id} className="callout bad small gateway-failed" data-testid="gateway-failed" data-gateway={g.id} role="alert">
          <strong>
            {kindLabel(g)} failed and stopped {clock(g.stoppedAt ?? g.updatedAt, data.checkedAt)}
          </strong>{' '}
          ({ago(g.stoppedAt ?? g.updatedAt, data.checkedAt)}): {g.failure}
          {g.kind === 'mcp' && g.transport === 'stdio'
            ? '. Its MCP host starts it again when the agent next needs it; until then its tools are not served.'
            : '.'}
        </div>
      ))}
      {live.map((g) => (
        <GatewayCard key={g.id} gateway={g} now={data.checkedAt} />
      ))}
      {live.length === 0 && (
        <div className="callout small" data-testid="gateway-none-running">
          No gateway is serving this project now; the ones that served it are below. Start one with <code>lots gateway openai</code> or{' '}
          <code>lots gateway mcp</code> (README, “Gateways”).
        </div>
      )}
      <FoldCard data={data} />
      {stopped.length > 0 && <StoppedCard gateways={stopped} now={data.checkedAt} />}
      <p className="small muted gateway-note">
        Tokens saved is the gateway’s own estimate: what it took off the menus — the hidden tools’ JSON, and the schemas of the deferred tools it sent demoted —
        at four characters a token (against llama-server it came out about 13% under the server’s count). Prompt tokens are what the upstream reported (
        <code>usage.prompt_tokens</code>); an MCP server reports none, and there a request is a <code>tools/list</code> or a forwarded <code>tools/call</code>.
      </p>
    </div>
  );
}

function NoGateway({ dir }: { dir: string }) {
  const q = /[^\w@%+=:,./-]/.test(dir) ? `'${dir.replace(/'/g, `'\\''`)}'` : dir;
  // The Empty component's box, wide enough for the two commands (they scroll rather than overflow).
  return (
    <div className="empty gateway-empty" data-testid="empty-state">
      <h2>No gateway has served this project yet</h2>
      <p>
        A gateway serves each task’s approved space to live agents and records their traffic into this project as new batches. Start one in a terminal; it
        appears here while it runs, with its requests per task, the tools it hides and the batch it records.
      </p>
      <pre className="code" data-testid="gateway-commands">
        {`# an OpenAI-compatible proxy (point the agent's base URL at http://127.0.0.1:8808/v1)\n`}
        {`lots gateway openai --project ${q} --upstream http://127.0.0.1:8080\n\n`}
        {`# an MCP server in front of another one, serving task T's space\n`}
        {`lots gateway mcp --project ${q} --task T \\\n    -- npx -y @modelcontextprotocol/server-filesystem /data`}
      </pre>
    </div>
  );
}

function StatusPill({ gateway, now }: { gateway: GatewayInfo; now: string }) {
  if (gateway.status === 'running' && gateway.upstreamDown)
    return (
      <span className="pill bad" data-testid="gateway-upstream-down" title={gateway.upstreamFailures?.last}>
        ✕ upstream down: not serving
      </span>
    );
  if (gateway.status === 'running')
    return <span className={`pill ${gateway.stopping ? 'warn' : 'good'}`}>{gateway.stopping ? 'stopping: committing its batch' : 'running'}</span>;
  if (gateway.failure !== null)
    return (
      <span className="pill bad" title={gateway.failure}>
        ✕ failed, stopped {clock(gateway.stoppedAt ?? gateway.updatedAt, now)}
      </span>
    );
  if (gateway.status === 'lost')
    return (
      <span className="pill warn" title={`its record was last rewritten ${fmtTime(gateway.updatedAt)}; its process is gone or its heartbeat stopped`}>
        stopped (not seen since {clock(gateway.updatedAt, now)}, {ago(gateway.updatedAt, now)})
      </span>
    );
  return <span className="pill">stopped {clock(gateway.stoppedAt ?? gateway.updatedAt, now)}</span>;
}

function kindLabel(g: GatewayInfo): string {
  return g.kind === 'openai' ? 'OpenAI gateway' : `MCP gateway · task ${g.task ?? '?'}`;
}

function GatewayCard({ gateway: g, now }: { gateway: GatewayInfo; now: string }) {
  const b = g.batch;
  return (
    <div className="card gateway-card" data-testid="gateway-card" data-gateway={g.id} data-status={g.status}>
      <div className="card-head">
        <h2>
          {kindLabel(g)} <StatusPill gateway={g} now={now} />
        </h2>
        <span className="sub">since {fmtTime(g.startedAt)}</span>
      </div>
      <div className="gateway-route small">
        <span className="mono">{g.url}</span>
        <span className="muted"> → </span>
        <span className="mono">{g.upstream}</span>
        <span className="muted">
          {' '}
          · session {g.id} · pid {g.pid}
          {g.hostname ? ` on ${g.hostname}` : ''}
        </span>
      </div>
      {g.upstreamFailures && <UpstreamFailures gateway={g} now={now} />}
      <div className="stats gateway-stats" data-testid="gateway-totals">
        <Stat label="Requests" value={fmtInt(g.totals.requests)} test="requests" />
        <Stat label="Passed through" value={fmtInt(g.totals.noSpace + (g.tasks.find((t) => t.task === null)?.requests ?? 0))} test="passed" />
        {g.kind === 'openai' && <Stat label="Unrouted" value={fmtInt(g.unrouted?.count ?? 0)} test="unrouted" />}
        <Stat label="Refused" value={fmtInt(g.refused)} test="refused" />
        <Stat label="Tools hidden" value={fmtInt(g.totals.toolsHidden)} test="hidden" />
        {g.kind === 'openai' && <Stat label="Called while deferred" value={fmtInt(g.calledWhileDeferred)} test="deferred-calls" />}
        <Stat label="Prompt tokens saved" value={`~${fmtInt(g.totals.tokensSaved)}`} test="saved" />
        <Stat label="Prompt tokens sent" value={g.kind === 'mcp' ? '—' : fmtInt(g.totals.promptTokens)} test="prompt" />
      </div>
      <TaskTable gateway={g} />
      {g.unrouted && <UnroutedTable gateway={g} now={now} />}
      {g.passedThrough !== null && g.passedThrough > 0 && (
        <p className="small muted" data-testid="gateway-passed-other">
          {plural(g.passedThrough, 'other request')} (not chat, responses or messages: models, embeddings, files…) passed through as sent: nothing cut or
          recorded.
        </p>
      )}
      <div className="gateway-batch small" data-testid="gateway-batch">
        <strong>Recording</strong> <span className="mono">{b.source}</span>: {plural(b.recorded, 'trace')} recorded, {fmtInt(b.queued)} waiting for the next
        commit
        {b.open > 0 ? `, ${plural(b.open, 'answer')} calling tools waiting for the agent’s next request` : ''};{' '}
        {b.files.length > 0 ? (
          <>
            {fmtInt(b.committed)} committed into{' '}
            {b.files.map((f, i) => (
              <span key={f}>
                {i > 0 ? ', ' : ''}
                <code>{f}</code>
              </span>
            ))}
            {b.lastCommitAt ? `, last at ${fmtTime(b.lastCommitAt)}` : ''}
          </>
        ) : (
          'nothing committed yet (every few minutes, and when the gateway stops)'
        )}
        .
      </div>
    </div>
  );
}

function Stat({ label, value, test }: { label: string; value: string; test: string }) {
  return (
    <div className="stat" data-stat={test}>
      <span className="label">{label}</span>
      <span className="value">{value}</span>
    </div>
  );
}

function TaskTable({ gateway: g }: { gateway: GatewayInfo }) {
  if (g.tasks.length === 0) return <p className="small muted">No request yet.</p>;
  // The column of upstream failures only when there are some (the table fits a 1280-wide window).
  const anyFailed = g.tasks.some((t) => t.failed > 0);
  return (
    <div className="table-wrap gateway-tasks">
      <table className="table" data-testid="gateway-tasks">
        <thead>
          <tr>
            <th>Task</th>
            <th>Space served</th>
            <th className="num">Requests</th>
            <th className="num" title="passed through: requests of a task without an approved space, or without a task: their whole menu was forwarded">
              Passed
            </th>
            <th className="num" title="tools cut from the menus, summed over the requests">
              Tools hidden
            </th>
            <th title="deferred tools the answers called (they stay callable), from the traces the gateway recorded">Deferred, called</th>
            <th className="num" title="the hidden tools' JSON and the deferred tools' schemas, at four characters a token">
              ~Tokens saved
            </th>
            <th className="num" title="prompt tokens sent: usage.prompt_tokens as the upstream reported it">
              Prompt tokens
            </th>
            {anyFailed && (
              <th className="num" title="requests the upstream answered with an error">
                Failed
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {g.tasks.map((t) => {
            const passed = t.task === null ? t.requests : t.noSpace;
            return (
              <tr key={t.task ?? '\u0000'} data-task={t.task ?? ''}>
                <td>
                  {t.task ?? (
                    <span className="muted" title="no x-lots-task header, no metadata.lots_task, and the project is not routed (lots route)">
                      no task
                    </span>
                  )}
                </td>
                <td>{t.spaceVersion !== undefined ? <SpaceServed task={t} /> : t.task === null ? '—' : <span className="pill warn">none approved</span>}</td>
                <td className="num">{fmtInt(t.requests)}</td>
                <td className="num">{passed > 0 ? fmtInt(passed) : '—'}</td>
                <td className="num">{fmtInt(t.toolsHidden)}</td>
                <td>
                  <DeferredCalls task={t} />
                </td>
                <td className="num">{t.tokensSaved > 0 ? `~${fmtInt(t.tokensSaved)}` : '0'}</td>
                <td className="num">{g.kind === 'mcp' ? '—' : fmtInt(t.promptTokens)}</td>
                {anyFailed && <td className="num">{t.failed > 0 ? fmtInt(t.failed) : '—'}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The version served and its three states: "v2 · 2 pinned · 1 deferred · 5 hidden". */
function SpaceServed({ task: t }: { task: GatewayTaskRow }) {
  return (
    <span className="gateway-space" data-testid="gateway-space-states">
      <span className="pill good">v{t.spaceVersion}</span>
      {t.states && (
        <span className="tiny text-2 gateway-space-states">
          {' '}
          {t.states.pinned} pinned · {t.states.deferred} deferred · {t.states.hidden} hidden
        </span>
      )}
    </span>
  );
}

function DeferredCalls({ task: t }: { task: GatewayTaskRow }) {
  const calls = t.calledWhileDeferred ?? [];
  if (calls.length > 0)
    return (
      <span className="gateway-deferred-calls" data-testid="gateway-deferred-calls">
        {calls.map((c, i) => (
          <span key={c.tool}>
            {i > 0 ? ', ' : ''}
            <code>{c.tool}</code> <span className="muted">×{c.traces}</span>
          </span>
        ))}
      </span>
    );
  if (t.recorded === undefined) return <span className="muted">{t.states?.deferred ? 'nothing recorded yet' : '—'}</span>;
  return <span className="muted">{t.deferredServed ? `none in ${plural(t.deferredServed, 'trace')} served with deferred tools` : '—'}</span>;
}

/** The MCP upstream's failures while serving: how many, the restarts that followed, the last reason. */
function UpstreamFailures({ gateway: g, now }: { gateway: GatewayInfo; now: string }) {
  const f = g.upstreamFailures!;
  return (
    <div className={`callout small ${g.upstreamDown ? 'bad' : 'warn'} gateway-upstream-failures`} data-testid="gateway-upstream-failures">
      <strong>
        The upstream failed {f.count === 1 ? 'once' : `${f.count} times`}
        {f.restarts > 0 ? `, started again ${f.restarts === 1 ? 'once' : `${f.restarts} times`}` : ''}
      </strong>
      {g.upstreamDown ? (g.status === 'running' ? ' — not serving until it starts again' : '') : ' — serving again'}. Last, {clock(f.at, now)} ({ago(f.at, now)}
      ): {f.last}
    </div>
  );
}

/** Requests the router left without a task (under its threshold): passed through whole, for `lots route` to make tasks of. */
function UnroutedTable({ gateway: g, now }: { gateway: GatewayInfo; now: string }) {
  const u = g.unrouted!;
  const recent = [...u.recent].reverse();
  return (
    <details className="gateway-unrouted" data-testid="gateway-unrouted" open={u.count <= 5}>
      <summary className="small">
        <strong>{plural(u.count, 'request')} unrouted</strong>: unlike every task (similarity under the router’s threshold), so passed through with the whole
        menu and recorded without a task. <code>lots route</code> makes tasks of them. {u.count > recent.length ? `The latest ${recent.length}:` : ''}
      </summary>
      <div className="table-wrap">
        <table className="table small" data-testid="gateway-unrouted-table">
          <thead>
            <tr>
              <th>When</th>
              <th>Request</th>
              <th>Nearest task</th>
              <th className="num" title="cosine similarity to the nearest task's centre, against the router's threshold">
                Similarity / threshold
              </th>
            </tr>
          </thead>
          <tbody>
            {recent.map((r, i) => (
              <tr key={`${r.at}${i}`}>
                <td className="nowrap">{clock(r.at, now)}</td>
                <td className="gateway-unrouted-text">{r.text}</td>
                <td>{r.nearest}</td>
                <td className="num tabular">
                  {r.similarity.toFixed(3)} &lt; {r.threshold.toFixed(3)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

const STATE_LABEL: Record<GatewayBatchState, [string, string]> = {
  folded: ['folded', 'good'],
  ready: ['ready to fold', 'accent'],
  unscored: ['waiting for scores', 'warn'],
  audit: ['MCP audit: not folded', ''],
  unrouted: ['no task: route first', 'warn'],
};

function FoldCard({ data }: { data: GatewayViewData }) {
  const folding = useStudio((s) => s.folding);
  const fold = useStudio((s) => s.foldGatewayBatches);
  const result = useStudio((s) => s.gatewayFold);
  const navigate = useStudio((s) => s.navigate);
  const ready = data.fold.filter((t) => t.ready > 0 && t.hasScores);
  const unscored = data.fold.some((t) => t.batches.some((b) => b.state === 'unscored'));
  const foldedNow = (result ?? []).filter((r) => (r.folded ?? 0) > 0);
  return (
    <div className="card" data-testid="gateway-fold">
      <div className="card-head">
        <h2>Fold the recorded traffic</h2>
        <span className="sub">each committed batch is an import of the project; once scored, lots update folds it into the task’s running scores</span>
      </div>
      {data.fold.length === 0 ? (
        <p className="small muted" style={{ margin: 0 }}>
          Nothing committed into the project yet: a gateway commits its batch every few minutes and when it stops.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="gateway-fold-tasks">
            <thead>
              <tr>
                <th>Task</th>
                <th>Gateway batches</th>
                <th className="num">Traces</th>
                <th className="num">Scored</th>
                <th>Approved</th>
                <th className="num">Last fold</th>
              </tr>
            </thead>
            <tbody>
              {data.fold.map((t) => (
                <FoldRow key={t.task} task={t} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="btn-row gateway-fold-actions">
        <button
          className="btn primary"
          disabled={folding || ready.length === 0}
          onClick={() => void fold(ready.map((t) => t.task))}
          data-testid="fold-gateway-batches"
          title={ready.length === 0 ? 'no scored batch waits to be folded' : `lots update for ${ready.map((t) => t.task).join(', ')}`}
        >
          {folding
            ? 'Folding…'
            : ready.length > 0
              ? `Fold ${plural(
                  ready.reduce((n, t) => n + t.ready, 0),
                  'batch',
                  'batches',
                )} (lots update)`
              : 'Fold (lots update)'}
        </button>
        {unscored && (
          <>
            <span className="small text-2">Batches waiting for scores are folded once scored:</span>
            <button className="btn small" onClick={() => navigate({ view: 'jobs' })}>
              Score on the Jobs view
            </button>
          </>
        )}
      </div>
      {foldedNow.length > 0 && (
        <div className="callout good small gateway-fold-result" data-testid="gateway-fold-result">
          Folded {foldedNow.map((r) => `${plural(r.folded ?? 0, 'batch', 'batches')} of ${r.task}`).join(', ')}: a new proposal is ready; nothing was applied.{' '}
          {foldedNow.map((r) => (
            <button key={r.task} className="btn small primary" onClick={() => navigate({ view: 'space', task: r.task })} data-testid="open-space-proposal">
              Review the proposal of {r.task} on the Space view
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function FoldRow({ task: t }: { task: GatewayFoldTask }) {
  return (
    <tr data-task={t.task}>
      <td>{t.task}</td>
      <td>
        <div className="chips">
          {t.batches.map((b) => {
            const [label, tone] = STATE_LABEL[b.state];
            return (
              <span key={b.file} className="gateway-batch-chip" data-file={b.file} data-state={b.state} title={`recorded by ${b.kind} gateway ${b.gateway}`}>
                <code>{b.file}</code> <span className={`pill ${tone}`}>{label}</span>
              </span>
            );
          })}
        </div>
      </td>
      <td className="num">{fmtInt(t.traces)}</td>
      <td className="num">{fmtInt(t.scored)}</td>
      <td>{t.approvedVersion !== null ? <span className="pill good">v{t.approvedVersion}</span> : <span className="muted">none</span>}</td>
      <td className="num">{t.lastFold !== null ? `batch ${t.lastFold}` : '—'}</td>
    </tr>
  );
}

function StoppedCard({ gateways, now }: { gateways: GatewayInfo[]; now: string }) {
  const shown = gateways.slice(0, 8);
  return (
    <div className="card" data-testid="gateway-stopped">
      <div className="card-head">
        <h2>Stopped gateways</h2>
        <span className="sub">{plural(gateways.length, 'gateway')} served this project before</span>
      </div>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Gateway</th>
              <th>Status</th>
              <th className="num">Requests</th>
              <th className="num">Tools hidden</th>
              <th className="num">~Tokens saved</th>
              <th className="num" title="traces it committed into the project">
                Committed
              </th>
              <th className="num" title="traces it held in memory and had not committed when it was last seen: a killed gateway loses them">
                Not committed
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((g) => {
              const left = g.batch.queued + g.batch.open;
              return (
                <tr
                  key={g.id}
                  data-gateway={g.id}
                  data-status={g.status}
                  title={`started ${fmtTime(g.startedAt)} · session ${g.id} · ${g.url} → ${g.upstream} · pid ${g.pid} on ${g.hostname}`}
                >
                  <td className="nowrap">{g.kind === 'openai' ? 'OpenAI' : `MCP · task ${g.task ?? '?'}`}</td>
                  <td>
                    <StatusPill gateway={g} now={now} />
                  </td>
                  <td className="num">{fmtInt(g.totals.requests)}</td>
                  <td className="num">{fmtInt(g.totals.toolsHidden)}</td>
                  <td className="num">{g.totals.tokensSaved > 0 ? `~${fmtInt(g.totals.tokensSaved)}` : '0'}</td>
                  <td className="num">{fmtInt(g.batch.committed)}</td>
                  <td className={`num${left > 0 && g.status === 'lost' ? ' bad' : ''}`}>{left > 0 ? fmtInt(left) : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {gateways.length > shown.length && <p className="small muted">and {plural(gateways.length - shown.length, 'earlier one')}</p>}
    </div>
  );
}

/** The time of day when it is the same day as `now`, else the date too. */
function clock(iso: string, now: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toDateString() === new Date(now).toDateString() ? d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' }) : fmtTime(iso);
}

/** "3 min ago", from the time the records were read. */
function ago(iso: string, now: string): string {
  const s = Math.max(0, Math.round((Date.parse(now) - Date.parse(iso)) / 1000));
  if (!Number.isFinite(s)) return 'a while ago';
  if (s < 90) return `${s} s ago`;
  if (s < 5400) return `${Math.round(s / 60)} min ago`;
  if (s < 172_800) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} days ago`;
}
