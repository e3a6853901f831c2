// The Space view's version history: each approved version with its rule, its note and its diff against the one before.
import { diffSpaces, type SpaceVersion } from '../../../shared/project/spaces';
import { describeRule } from '../../../shared/export/space-report';
import { fmtTime } from '../../format';

export function VersionHistory({
  versions,
  historyOpen,
  setHistoryOpen,
}: {
  versions: SpaceVersion[];
  historyOpen: number | null;
  setHistoryOpen(v: number | null): void;
}) {
  return (
    <div className="card">
      <div className="card-head">
        <h2>Version history</h2>
        <span className="sub">{versions.length} approved</span>
      </div>
      {versions.length === 0 ? (
        <p className="muted small">No version approved yet. The first approval becomes v0.</p>
      ) : (
        <ol className="history" data-testid="space-history">
          {[...versions].reverse().map((v) => (
            <HistoryItem
              key={v.version}
              v={v}
              prev={versions[v.version - 1] ?? null}
              open={historyOpen === v.version}
              onToggle={() => setHistoryOpen(historyOpen === v.version ? null : v.version)}
            />
          ))}
        </ol>
      )}
    </div>
  );
}

function HistoryItem({ v, prev, open, onToggle }: { v: SpaceVersion; prev: SpaceVersion | null; open: boolean; onToggle(): void }) {
  const d = diffSpaces(prev?.tools ?? [], v.tools);
  return (
    <li>
      <button className="history-item" onClick={onToggle} aria-expanded={open}>
        <strong>v{v.version}</strong>
        <span className="muted small tabular">{fmtTime(v.createdAt)}</span>
        {/* Wraps between its parts, never inside one ("K =" / "4" at 1280 px). */}
        <span className="small">
          <span className="nowrap">{v.tools.length} tools ·</span> <span className="nowrap">{describeRule(v.rule)}</span>
        </span>
        <span className="small">
          <span className="good">+{d.added.length}</span> <span className="bad">−{d.removed.length}</span>
        </span>
      </button>
      {v.note && <div className="history-note small">“{v.note}”</div>}
      {open && (
        <div className="chips" style={{ margin: '6px 0 4px' }}>
          {d.kept.map((t) => (
            <span key={t} className="chip">
              {t}
            </span>
          ))}
          {d.added.map((t) => (
            <span key={t} className="chip added">
              + {t}
            </span>
          ))}
          {d.removed.map((t) => (
            <span key={t} className="chip removed">
              {t}
            </span>
          ))}
        </div>
      )}
    </li>
  );
}
