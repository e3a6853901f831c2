// The Gateway view (README "Gateways"): the gateways (`lots gateway openai|mcp`) that serve the open
// project, each from the status record it keeps in the project — where it listens, its upstream,
// requests per task, the tools its spaces hid and the prompt tokens that saved, the batch it is recording
// — what failed (the MCP gateway's upstream failures, and why a gateway stopped on its own), the requests
// the router left unrouted, the three states of each task's served space and the deferred tools the
// agent called anyway — and the fold of what they recorded into each task's running scores (`lots update`, the History
// view's own fold), which leads to the new proposal on the Space view. Gateways are other processes: the
// view reads their records again every few seconds while it is shown.
import { useEffect } from 'react';
import { Empty } from '../components/Empty';
import { useStudio } from '../store/react';
import { FoldCard } from './gateway/FoldCard';
import { ago, clock, kindLabel } from './gateway/format';
import { GatewayCard } from './gateway/GatewayCard';
import { NoGateway } from './gateway/NoGateway';
import { StoppedCard } from './gateway/StoppedCard';

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
