// The Space view's row of one candidate tool: rank, score, support, state pills and the keep/drop, pin, defer and ban buttons.
import type { RefObject } from 'react';
import type { SpaceCandidate } from '../../../shared/api';
import { stateOf, type DraftAction as EditAction, type DraftStates, type SpaceDraft } from '../../../shared/lots/space-draft';
import { VIEW_ONLY_REASON } from '../../components/ViewOnly';
import { fmtSigned } from '../../format';
import { DeferButton, ToolStatePill } from '../ToolState';

export function ToolRow({
  c,
  i,
  task,
  draft,
  states,
  keptSet,
  top,
  cursor,
  setCursor,
  editTool,
  viewOnly,
  listRef,
}: {
  c: SpaceCandidate;
  i: number;
  task: string;
  draft: SpaceDraft;
  states: DraftStates | null;
  keptSet: ReadonlySet<string>;
  top: ReadonlySet<string>;
  cursor: number;
  setCursor(i: number): void;
  editTool(task: string, tool: string, action: EditAction): void;
  viewOnly: boolean;
  listRef: RefObject<HTMLDivElement | null>;
}) {
  const isKept = keptSet.has(c.tool);
  const pinned = draft.pinned.includes(c.tool);
  const banned = draft.banned.includes(c.tool);
  const added = draft.added.includes(c.tool);
  const removed = draft.removed.includes(c.tool);
  return (
    <div
      id={`cand-${i}`}
      data-index={i}
      data-tool={c.tool}
      role="option"
      aria-selected={i === cursor}
      className={`space-row${i === cursor ? ' cursor' : ''}${isKept ? ' kept' : ''}${i === draft.k - 1 && c.rank !== null ? ' k-edge' : ''}`}
      onClick={() => {
        setCursor(i);
        listRef.current?.focus();
      }}
      onFocus={(e) => {
        if (e.target !== e.currentTarget && i !== cursor) setCursor(i);
      }}
    >
      <span className="num muted">{c.rank ?? '—'}</span>
      <span className="mono ellipsis" title={c.tool}>
        {c.tool}
      </span>
      <span className={`num ${c.mean === null ? 'muted' : c.mean >= 0 ? 'pos' : 'neg'}`}>{c.mean === null ? 'unscored' : fmtSigned(c.mean, 3)}</span>
      <span className="num muted">{c.n || '—'}</span>
      <span className="status-cell">
        <ToolStatePill state={states ? stateOf(states, c.tool) : isKept ? 'pinned' : 'hidden'} />
        {pinned && <span className="pill accent">pin</span>}
        {draft.deferred.includes(c.tool) && <span className="pill accent">defer</span>}
        {banned && <span className="pill bad">banned</span>}
        {added && <span className="pill accent">added</span>}
        {removed && <span className="pill warn">removed</span>}
        {!added && !removed && !pinned && !banned && top.has(c.tool) && <span className="muted tiny">top-{draft.k}</span>}
      </span>
      <span className="row-actions">
        <button
          className="btn ghost small"
          onClick={(e) => {
            e.stopPropagation();
            editTool(task, c.tool, isKept ? 'drop' : 'keep');
          }}
          aria-label={`${isKept ? 'Drop' : 'Keep'} ${c.tool}`}
          disabled={viewOnly}
          title={viewOnly ? VIEW_ONLY_REASON : undefined}
        >
          {isKept ? 'drop' : 'keep'}
        </button>
        <button
          className="btn ghost small"
          onClick={(e) => {
            e.stopPropagation();
            editTool(task, c.tool, 'pin');
          }}
          aria-pressed={pinned}
          aria-label={`Pin ${c.tool}`}
          disabled={viewOnly}
          title={viewOnly ? VIEW_ONLY_REASON : undefined}
        >
          pin
        </button>
        <DeferButton
          tool={c.tool}
          deferred={draft.deferred.includes(c.tool)}
          onDefer={() => editTool(task, c.tool, 'defer')}
          {...(viewOnly ? { disabledWhy: VIEW_ONLY_REASON } : {})}
        />
        <button
          className="btn ghost small"
          onClick={(e) => {
            e.stopPropagation();
            editTool(task, c.tool, 'ban');
          }}
          aria-pressed={banned}
          aria-label={`Ban ${c.tool}`}
          disabled={viewOnly}
          title={viewOnly ? VIEW_ONLY_REASON : undefined}
        >
          ban
        </button>
      </span>
    </div>
  );
}
