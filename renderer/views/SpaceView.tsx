// The space editor: accept the proposal or edit it (keep, drop, pin, defer, ban; a note is required for an
// edit), see each tool's state (pinned, deferred, hidden), the diff against the previous approved version
// and the version history. Keyboard-driven.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { diffSpaces, type SpaceVersion } from '../../shared/project/spaces';
import { selectTopK } from '../../shared/lots/select';
import { describeRule } from '../../shared/export/space-report';
import { Empty } from '../components/Empty';
import { fmtSigned, fmtTime } from '../format';
import { selectKept, selectStates } from '../store/draft-slice';
import { acceptInputOf, isEdited, rankingOf, sameAsVersion, stateOf, type DraftAction as EditAction } from '../../shared/lots/space-draft';
import { DeferButton, ToolStatePill } from './ToolState';
import { useDraft, useStudio, useTaskView } from '../store/react';
import { isTyping } from '../components/keys';
import { SpacePill } from '../components/SpacePill';
import { useViewOnly, VIEW_ONLY_REASON, ViewOnlyNote } from '../components/ViewOnly';

export function SpaceView() {
  const task = useStudio((s) => s.route.task);
  const { space, draft } = useDraft(task);
  const kept = useStudio((s) => selectKept(s, task));
  const states = useStudio((s) => selectStates(s, task));
  const cursor = useStudio((s) => s.reviewCursor);
  const setCursor = useStudio((s) => s.setReviewCursor);
  const editTool = useStudio((s) => s.editTool);
  const setNote = useStudio((s) => s.setNote);
  const setK = useStudio((s) => s.setK);
  const resetDraft = useStudio((s) => s.resetDraft);
  const acceptDraft = useStudio((s) => s.acceptDraft);
  const accepting = useStudio((s) => s.accepting);
  const lastApproval = useStudio((s) => (s.lastApproval?.task === task ? s.lastApproval : null));
  const viewOnly = useViewOnly();
  const budget = useTaskView('budgets', task);
  const status = useStudio((s) => s.project?.tasks.find((t) => t.task === task)?.space);
  const listRef = useRef<HTMLDivElement>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const [historyOpen, setHistoryOpen] = useState<number | null>(null);
  const refocus = useRef(false);
  const approve = useCallback(() => {
    if (!task) return;
    refocus.current = true;
    // Confirmed beside the button, not in a toast over the version history (issue 40).
    void acceptDraft(task, { inline: true });
  }, [task, acceptDraft]);

  const ranking = useMemo(() => rankingOf(space), [space]);
  const top = useMemo(() => new Set(draft ? selectTopK(ranking, draft.k) : []), [ranking, draft]);
  const keptSet = useMemo(() => new Set(kept ?? []), [kept]);
  const candidates = useMemo(() => space?.candidates ?? [], [space]);
  const previous = space?.approved ?? null;
  const diff = useMemo(() => diffSpaces(previous?.tools ?? [], kept ?? []), [previous, kept]);
  // Same states and edits as the approved version: nothing to approve.
  const unchanged =
    previous !== null && space !== undefined && draft !== undefined && task !== undefined && sameAsVersion(acceptInputOf(task, space, draft), previous);
  const edited = draft ? isEdited(draft) && !unchanged : false;
  const noteMissing = edited && !draft?.note.trim();

  // Review keys on the list: arrows/j/k move, a/x/p/b act, n jumps to the note, Ctrl+Enter approves.
  useEffect(() => {
    const el = listRef.current;
    if (!el || !task || !draft) return;
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target)) return;
      // The keys act on the row that has the focus (a row's button), else on the row cursor (issue 40).
      const focusedRow = e.target instanceof HTMLElement && e.target !== el ? e.target.closest<HTMLElement>('[data-tool]') : null;
      const tool = focusedRow?.dataset.tool ?? candidates[cursor]?.tool;
      const act = (a: EditAction) => {
        if (tool && !viewOnly) editTool(task, tool, a);
      };
      if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
        e.preventDefault();
        if (viewOnly) return;
        if (!noteMissing) approve();
        else noteRef.current?.focus();
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      // Enter and Space on a focused button press that button, as everywhere else.
      if (e.target instanceof HTMLButtonElement && (e.key === 'Enter' || e.key === ' ')) return;
      switch (e.key) {
        case 'ArrowDown':
        case 'j':
          setCursor(Math.min(candidates.length - 1, cursor + 1));
          break;
        case 'ArrowUp':
        case 'k':
          setCursor(Math.max(0, cursor - 1));
          break;
        case 'Home':
          setCursor(0);
          break;
        case 'End':
          setCursor(candidates.length - 1);
          break;
        case 'a':
        case '+':
        case 'Enter':
          act('keep');
          break;
        case 'x':
        case '-':
        case 'Delete':
          act('drop');
          break;
        case 'p':
          act('pin');
          break;
        case 'b':
          act('ban');
          break;
        case 'd':
          act('defer');
          break;
        case 'n':
          noteRef.current?.focus();
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  }, [task, draft, candidates, cursor, setCursor, editTool, approve, noteMissing, viewOnly]);

  // An approval reloads the space (the list is briefly replaced): the focus comes back to the list.
  useEffect(() => {
    if (refocus.current && draft && listRef.current) {
      refocus.current = false;
      listRef.current.focus();
    }
  }, [draft, space]);

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${cursor}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);

  if (!task) return <Empty title="No task selected">Pick a task on the project view.</Empty>;
  if (!space || !draft) return <p className="muted">Loading the spaces of {task}…</p>;
  if (candidates.length === 0) return <Empty title="No tools on this task's menus">Import traces for this task first.</Empty>;

  return (
    <>
      <ViewOnlyNote what="Editing and approving the space" />
      <div className="space-layout">
        <div className="card space-list-card">
          <div className="card-head">
            <h2>Tools</h2>
            <span className="sub">
              ↑↓ move · <kbd>a</kbd> keep · <kbd>x</kbd> drop · <kbd>p</kbd> pin · <kbd>d</kbd> defer · <kbd>b</kbd> ban · <kbd>?</kbd> all keys
            </span>
          </div>
          <div
            className="space-list"
            ref={listRef}
            tabIndex={0}
            role="listbox"
            aria-label="Tools of the task; arrows to move, a keep, x drop, p pin, d defer, b ban"
            aria-activedescendant={`cand-${cursor}`}
            data-testid="space-list"
          >
            <div className="space-row space-head">
              <span className="num">#</span>
              <span>tool</span>
              <span className="num">Ī</span>
              <span className="num">n</span>
              <span>status</span>
              <span />
            </div>
            {candidates.map((c, i) => {
              const isKept = keptSet.has(c.tool);
              const pinned = draft.pinned.includes(c.tool);
              const banned = draft.banned.includes(c.tool);
              const added = draft.added.includes(c.tool);
              const removed = draft.removed.includes(c.tool);
              return (
                <div
                  key={c.tool}
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
                  <span className={`num ${c.mean === null ? 'muted' : c.mean >= 0 ? 'pos' : 'neg'}`}>
                    {c.mean === null ? 'unscored' : fmtSigned(c.mean, 3)}
                  </span>
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
            })}
          </div>
        </div>

        <div className="space-side">
          <div className="card">
            <div className="card-head">
              <h2>Draft space</h2>
              {status && <SpacePill status={status.status} version={status.version} />}
            </div>
            <div className="field-row" style={{ alignItems: 'center', marginBottom: 10 }}>
              <span className="small text-2">Top-K</span>
              <input
                type="range"
                min={0}
                max={ranking.length}
                value={Math.min(draft.k, ranking.length)}
                onChange={(e) => setK(task, Number(e.target.value))}
                style={{ flex: 1 }}
                aria-label="Budget K"
              />
              <span className="tabular">
                <strong>K = {draft.k}</strong> → {kept?.length ?? 0} pinned, {states?.deferred.length ?? 0} deferred
              </span>
              {budget?.recommendedK !== null && budget?.recommendedK !== undefined && budget.recommendedK !== draft.k && (
                <button
                  className="btn ghost small"
                  onClick={() => setK(task, budget.recommendedK!)}
                  title={budget.recommendedBy === 'sweep' ? 'Smallest K at the best fitting accuracy' : 'Every tool with a positive score (no sweep yet)'}
                  data-testid="space-use-recommended-k"
                >
                  use K = {budget.recommendedK}
                </button>
              )}
            </div>
            <div className="small text-2" style={{ marginBottom: 6 }}>
              Diff against {previous ? `approved v${previous.version}` : 'nothing approved yet'}:
            </div>
            <div className="chips" data-testid="space-diff">
              {diff.kept.map((t) => (
                <span key={t} className={`chip${draft.pinned.includes(t) ? ' pinned' : ''}`}>
                  {t}
                </span>
              ))}
              {diff.added.map((t) => (
                <span key={t} className={`chip added${draft.pinned.includes(t) ? ' pinned' : ''}`}>
                  + {t}
                </span>
              ))}
              {diff.removed.map((t) => (
                <span key={t} className="chip removed">
                  {t}
                </span>
              ))}
              {(kept?.length ?? 0) === 0 && diff.removed.length === 0 && <span className="muted small">empty space</span>}
            </div>
            <label className="field" style={{ marginTop: 12 }}>
              <span>
                Note{' '}
                {unchanged ? (
                  <span className="muted">(no changes since v{previous?.version})</span>
                ) : edited ? (
                  <span className="bad">(required: say why you edited the proposal)</span>
                ) : (
                  <span className="muted">(optional for the unedited proposal)</span>
                )}
              </span>
              <textarea
                ref={noteRef}
                rows={3}
                value={draft.note}
                onChange={(e) => setNote(task, e.target.value)}
                placeholder="e.g. pinned Calculator: the team's agents always need it"
                data-testid="space-note"
                disabled={viewOnly}
                title={viewOnly ? VIEW_ONLY_REASON : undefined}
                onKeyDown={(e) => {
                  if ((e.ctrlKey || e.metaKey) && e.key === 'Enter' && !noteMissing) approve();
                  if (e.key === 'Escape') listRef.current?.focus();
                }}
              />
            </label>
            <div className="btn-row" style={{ marginTop: 10 }}>
              <button
                className="btn primary"
                onClick={approve}
                disabled={viewOnly || accepting || noteMissing || unchanged}
                data-testid="approve-space"
                aria-describedby={viewOnly ? 'approve-why' : undefined}
                title={viewOnly ? VIEW_ONLY_REASON : noteMissing ? 'Write a note first' : unchanged ? 'Same as the approved version' : 'Ctrl+Enter'}
              >
                {accepting ? <span className="spinner" /> : null}{' '}
                {unchanged ? `Approved as v${previous.version}` : previous ? `Approve as v${previous.version + 1}` : 'Approve v0'}
              </button>
              <button className="btn" onClick={() => resetDraft(task, 'proposal')}>
                Reset to proposal
              </button>
              {previous && (
                <button className="btn ghost" onClick={() => resetDraft(task, 'approved')}>
                  Back to v{previous.version}
                </button>
              )}
            </div>
            {viewOnly && (
              <p className="tiny muted" id="approve-why" data-testid="approve-why">
                Approving is off: {VIEW_ONLY_REASON}.
              </p>
            )}
            {lastApproval && previous?.version === lastApproval.version && (
              <div className="callout good small" role="status" data-testid="space-approved" style={{ marginTop: 8 }}>
                <strong>Approved as v{lastApproval.version}</strong> · {lastApproval.message}. It is now at the top of the version history below.
              </div>
            )}
            <p className="muted tiny" style={{ marginTop: 8 }}>
              Proposal: {describeRule(space.proposal.rule)} → {space.proposal.tools.length} tools
              {space.proposal.rule.kind === 'topk' && space.proposal.tools.length > space.proposal.rule.k
                ? ` (${space.proposal.tools.length - space.proposal.rule.k} pinned tool${space.proposal.tools.length - space.proposal.rule.k === 1 ? '' : 's'} counted on top of K = ${space.proposal.rule.k})`
                : ''}
              . Pinned tools are always kept, banned ones never; the rule never pads with unscored tools.
            </p>
            {space.changedSinceApproval && (
              <div className="callout warn small" style={{ marginTop: 8 }}>
                Scores changed since v{previous?.version} was approved: review the ranking before approving again.
              </div>
            )}
            {space.update && !sameSet(space.update.tools, kept ?? []) && (
              <div className="callout small" style={{ marginTop: 8 }} data-testid="space-update-proposal">
                The continual update after batch {space.update.batch} proposes{' '}
                {space.update.tools.length === 0 ? 'no tool' : <span className="mono">{space.update.tools.join(', ')}</span>} ({describeRule(space.update.rule)}{' '}
                of the running scores, α = {space.update.alpha}; see History).{' '}
                <button className="btn small" onClick={() => resetDraft(task, 'update')} data-testid="use-update-proposal">
                  Use the update proposal
                </button>
              </div>
            )}
          </div>

          <div className="card">
            <div className="card-head">
              <h2>Version history</h2>
              <span className="sub">{space.versions.length} approved</span>
            </div>
            {space.versions.length === 0 ? (
              <p className="muted small">No version approved yet. The first approval becomes v0.</p>
            ) : (
              <ol className="history" data-testid="space-history">
                {[...space.versions].reverse().map((v) => (
                  <HistoryItem
                    key={v.version}
                    v={v}
                    prev={space.versions[v.version - 1] ?? null}
                    open={historyOpen === v.version}
                    onToggle={() => setHistoryOpen(historyOpen === v.version ? null : v.version)}
                  />
                ))}
              </ol>
            )}
          </div>
        </div>
      </div>
    </>
  );
}

function HistoryItem({ v, prev, open, onToggle }: { v: SpaceVersion; prev: SpaceVersion | null; open: boolean; onToggle(): void }) {
  const d = diffSpaces(prev?.tools ?? [], v.tools);
  return (
    <li>
      <button className="history-item" onClick={onToggle} aria-expanded={open}>
        <strong>v{v.version}</strong>
        <span className="muted small tabular">{fmtTime(v.createdAt)}</span>
        <span className="small">
          {v.tools.length} tools · {describeRule(v.rule)}
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

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  return x.size === new Set(b).size && b.every((t) => x.has(t));
}
