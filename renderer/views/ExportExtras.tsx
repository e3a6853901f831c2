// The Export view's parts for three-state spaces (issue 44): the MCP server name the mcp-claude format
// needs, the refusal shown for a task with no approved space, and "export every approved space" in one
// action. Kept apart from ExportView.tsx so that view's layout stays its own.
import { useState } from 'react';
import { downloadText } from '../api/files';
import { mcpServerOf } from '../store/export-slice';
import { useApi, useStudio } from '../store/react';
import { useViewOnly, VIEW_ONLY_REASON } from '../components/ViewOnly';

/** mcp-claude: the server's name in the agent's mcpServers config, for `mcp__<server>__<tool>` names. */
export function McpServerField() {
  const format = useStudio((s) => s.exportFormat);
  const name = useStudio((s) => s.mcpServer);
  const setName = useStudio((s) => s.setMcpServer);
  if (format !== 'mcp-claude') return null;
  return (
    <label className="field" style={{ marginTop: 10 }}>
      <span className="small text-2">
        MCP server name (its key in the agent&apos;s <span className="mono">mcpServers</span>): names are written{' '}
        <span className="mono">mcp__{name.trim() || '<server>'}__&lt;tool&gt;</span>
      </span>
      <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. finance" data-testid="mcp-server" />
    </label>
  );
}

/** Why the task's space is not exported: nothing is approved (an empty allow-list would block every tool). */
export function ExportRefusal() {
  const refused = useStudio((s) => s.exportRefused);
  const navigate = useStudio((s) => s.navigate);
  if (!refused) return null;
  return (
    <div className="callout warn small" style={{ marginTop: 6 }} role="alert" data-testid="export-refused">
      Not exported: {refused}{' '}
      <button className="btn small" onClick={() => navigate({ view: 'space' })}>
        Review & approve…
      </button>
    </div>
  );
}

/** "Export every approved space": one file per approved task (a folder in the app, one JSON bundle in a browser). */
export function ExportAllCard() {
  const api = useApi();
  const format = useStudio((s) => s.exportFormat);
  const mcpServer = useStudio((s) => s.mcpServer);
  const native = useStudio((s) => s.info?.nativeDialogs === true);
  const notify = useStudio((s) => s.notify);
  const fail = useStudio((s) => s.fail);
  const [busy, setBusy] = useState(false);
  const viewOnly = useViewOnly();

  const run = async () => {
    setBusy(true);
    try {
      const extra = mcpServerOf(format, mcpServer);
      if (native) {
        const dir = (await api.pickPath({ kind: 'project' }))?.[0];
        if (!dir) return;
        const all = await api.exportAllSpaces({ format, dir, ...extra });
        notify({ kind: 'success', title: exportedTitle(all.files.length), message: skippedText(all.skipped) || dir });
      } else {
        const all = await api.exportAllSpaces({ format, ...extra });
        const bundle = {
          format,
          files: all.files.map((f) => ({ task: f.task, version: f.version, filename: f.filename, text: f.text })),
          skipped: all.skipped,
        };
        const text = JSON.stringify(bundle, null, 2) + '\n';
        downloadText(`approved-spaces.${format}.json`, text, 'application/json');
        notify({
          kind: 'success',
          title: exportedTitle(all.files.length),
          message: skippedText(all.skipped) || 'one JSON file, each space under files[]',
        });
      }
    } catch (e) {
      fail(e, 'Nothing exported');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div className="card-head" style={{ marginTop: 16 }}>
        <h2>Every approved space</h2>
      </div>
      <p className="small text-2" style={{ marginBottom: 8 }}>
        Each task&apos;s approved version in the chosen format; tasks without one are listed, not exported.
      </p>
      <button className="btn" onClick={() => void run()} disabled={busy || viewOnly} title={viewOnly ? VIEW_ONLY_REASON : undefined} data-testid="export-all">
        {native ? 'Export all to a folder…' : 'Download all (JSON)'}
      </button>
    </>
  );
}

function skippedText(skipped: readonly { task: string; reason: string }[]): string {
  return skipped.length === 0 ? '' : `skipped (no approved space): ${skipped.map((s) => s.task).join(', ')}`;
}

function exportedTitle(n: number): string {
  return `${n} approved space${n === 1 ? '' : 's'} exported`;
}
